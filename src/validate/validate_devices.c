/* SPDX-License-Identifier: MIT */
/* What validate certifies over every device (spec/validate.md, "Over every device"): at most one entry
 * point of a name and execution model survives, and every OpConditionalCopyObjectINTEL that survives has
 * exactly one true condition. The device constants mean what they say: a device has one target and a set
 * of features, one architecture (category, family, number), a set of capabilities; the other leaves
 * (SpecId booleans) are free. The devices are enumerated by what the module's constants can tell apart:
 * each target they name and one other, each subset of the features and capabilities they name, each
 * category and family they name with the numbers at and around their thresholds, and one other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/evaluate.h"
#include "validate/validate_check.h"

#define MAX_SET 16       /* features, capabilities or free leaves enumerated as subsets */
#define MAX_VALUES 64    /* targets, architectures */
#define NO_VALUE UINT32_MAX

/* What is counted per device: the entry points that share an execution model and a name, or one
 * copy's conditions (members [first, first + count)). */
struct group {
    size_t inst;         /* the copy, or the group's first entry point */
    size_t first, count; /* into members */
    bool copy;
    bool reported;       /* an error given */
    uint64_t gaps;       /* devices that get none of the group (the first described below) */
    char gap_device[256];
};

struct member {
    size_t inst;
    struct guard guard;  /* what must hold for it to survive (entry point) or apply (copy) */
    uint32_t condition;  /* a copy's operand condition; 0 for an entry point */
    uint32_t variant;    /* the entry point's function, or the copy's operand */
    uint64_t kept;       /* devices that keep it alone (coverage) */
    char example[192];   /* the first of them */
};

struct space {
    struct check *c;
    uint32_t targets[MAX_VALUES], features[MAX_SET], caps[MAX_SET];
    size_t target_count, feature_count, cap_count;
    uint32_t pairs[MAX_VALUES][2];             /* (category, family) */
    uint32_t arch_values[MAX_VALUES][MAX_VALUES]; /* per pair, the numbers that tell its thresholds apart */
    size_t pair_count, arch_count[MAX_VALUES];
    uint32_t free_leaves[MAX_SET];             /* node indices */
    size_t free_count;
    struct group *groups;
    struct member *members;
    size_t group_count, member_count;
};

static bool
add_value(uint32_t *list, size_t *count, size_t max, uint32_t v)
{
    for (size_t k = 0; k < *count; k++)
        if (list[k] == v)
            return true;
    if (*count == max)
        return false;
    list[(*count)++] = v;
    return true;
}

static size_t
pair_of(const struct space *s, uint32_t category, uint32_t family)
{
    for (size_t p = 0; p < s->pair_count; p++)
        if (s->pairs[p][0] == category && s->pairs[p][1] == family)
            return p;
    return SIZE_MAX;
}

/* The facts the leaves test; false when there are more than the enumeration takes. */
static bool
collect_facts(struct space *s)
{
    struct check *c = s->c;
    const struct spvcond_module *m = c->m;
    for (size_t n = 0; n < c->node_count; n++) {
        const uint32_t *w = spvcond_inst_words(m, spvcond_def(m, c->nodes[n]));
        uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
        bool ok = true;
        switch (op) {
        case SPVCOND_OP_SPEC_CONSTANT_OP: /* the logical operations only (validate's other rules say why not) */
            ok = w[3] >= SPVCOND_OP_LOGICAL_EQUAL && w[3] <= SPVCOND_OP_SELECT;
            break;
        case SPVCOND_OP_CONSTANT_TRUE: case SPVCOND_OP_CONSTANT_FALSE:
            break;
        case SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL:
            ok = add_value(s->targets, &s->target_count, MAX_VALUES, w[3]);
            for (uint32_t k = 4; k < wc && ok; k++)
                ok = add_value(s->features, &s->feature_count, MAX_SET, w[k]);
            break;
        case SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL:
            for (uint32_t k = 3; k < wc && ok; k++)
                ok = add_value(s->caps, &s->cap_count, MAX_SET, w[k]);
            break;
        case SPVCOND_OP_SPEC_CONSTANT_ARCHITECTURE_INTEL: {
            size_t p = pair_of(s, w[3], w[4]);
            if (p == SIZE_MAX) {
                if (s->pair_count == MAX_VALUES)
                    return false;
                p = s->pair_count++;
                s->pairs[p][0] = w[3];
                s->pairs[p][1] = w[4];
                s->arch_count[p] = 0;
            }
            /* The comparison flips at the threshold: a number below it, it, and one above tell every
             * comparison apart. */
            uint32_t a = w[6];
            ok = (a == 0 || add_value(s->arch_values[p], &s->arch_count[p], MAX_VALUES, a - 1)) &&
                 add_value(s->arch_values[p], &s->arch_count[p], MAX_VALUES, a) &&
                 (a == UINT32_MAX || add_value(s->arch_values[p], &s->arch_count[p], MAX_VALUES, a + 1));
            break;
        }
        default: /* a free boolean leaf; an integer one is not enumerated */
            ok = spvcond_def_opcode(m, w[1]) == SPVCOND_OP_TYPE_BOOL &&
                 add_value(s->free_leaves, &s->free_count, MAX_SET, (uint32_t)n);
            break;
        }
        if (!ok)
            return false;
    }
    return true;
}

/* One device of the enumeration: its index decoded into the facts. */
struct device {
    spvcond_fnvar_device d;
    uint32_t features[MAX_SET], caps[MAX_SET];
    uint32_t free_bits;
};

static uint64_t
arch_choices(const struct space *s)
{
    uint64_t n = 1; /* a category and family none of the constants names */
    for (size_t p = 0; p < s->pair_count; p++)
        n += s->arch_count[p];
    return n;
}

/* How many devices the enumeration visits; UINT64_MAX past what it can count. */
static uint64_t
device_count(const struct space *s)
{
    size_t bits = s->feature_count + s->cap_count + s->free_count; /* at most 3 * MAX_SET */
    uint64_t n = (uint64_t)(s->target_count + 1) << bits;
    uint64_t arch = arch_choices(s);
    return n > UINT64_MAX / arch ? UINT64_MAX : n * arch;
}

static void
decode(const struct space *s, uint64_t index, struct device *dev)
{
    memset(dev, 0, sizeof(*dev));
    uint64_t t = index % (s->target_count + 1);
    index /= s->target_count + 1;
    dev->d.has_target = t < s->target_count;
    dev->d.target = dev->d.has_target ? s->targets[t] : NO_VALUE;
    for (size_t k = 0; k < s->feature_count; k++, index >>= 1)
        if (index & 1)
            dev->features[dev->d.feature_count++] = s->features[k];
    for (size_t k = 0; k < s->cap_count; k++, index >>= 1)
        if (index & 1)
            dev->caps[dev->d.capability_count++] = s->caps[k];
    dev->d.has_capabilities = true;
    dev->d.has_features = true;
    dev->d.unspecified = SPVCOND_UNSPECIFIED_UNKNOWN; /* a target or family not named: one no constant names */
    dev->free_bits = (uint32_t)(index & ((UINT64_C(1) << s->free_count) - 1));
    index >>= s->free_count;
    for (size_t p = 0; p < s->pair_count; p++) {
        if (index < s->arch_count[p]) {
            dev->d.has_architecture = true;
            dev->d.category = s->pairs[p][0];
            dev->d.family = s->pairs[p][1];
            dev->d.architecture = s->arch_values[p][index];
            break;
        }
        index -= s->arch_count[p];
    }
    dev->d.features = dev->features;
    dev->d.capabilities = dev->caps;
}

static void
evaluate_device(const struct space *s, const struct device *dev, uint8_t *value)
{
    const struct check *c = s->c;
    const struct spvcond_module *m = c->m;
    size_t free_leaf = 0;
    for (size_t n = 0; n < c->node_count; n++) {
        const uint32_t *w = spvcond_inst_words(m, spvcond_def(m, c->nodes[n]));
        uint32_t op = spvcond_opcode_of(w[0]);
        switch (op) {
        case SPVCOND_OP_CONSTANT_TRUE: value[n] = 1; break;
        case SPVCOND_OP_CONSTANT_FALSE: value[n] = 0; break;
        case SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL: case SPVCOND_OP_SPEC_CONSTANT_ARCHITECTURE_INTEL:
        case SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL:
            value[n] = spvcond_device_constant_value(&dev->d, w);
            break;
        case SPVCOND_OP_SPEC_CONSTANT_OP:
            value[n] = spvcond_validate_logical(c, w, value);
            break;
        default:
            value[n] = (dev->free_bits >> free_leaf++) & 1;
            break;
        }
    }
}

static bool
holds(const struct check *c, const uint8_t *value, struct guard g)
{
    return (!g.a || value[c->node[g.a] - 1]) && (!g.b || value[c->node[g.b] - 1]);
}

/* The device in words: what the module's constants ask of it ("a device with target 4, no feature the
 * module tests, SpecId 1 true"). */
static void
describe_device(const struct space *s, const struct device *dev, char *buf, size_t n)
{
    const struct spvcond_module *m = s->c->m;
    size_t o = (size_t)snprintf(buf, n, "a device with");
    const char *sep = " ";
#define PART(...) (o < n ? (o += (size_t)snprintf(buf + o, n - o, __VA_ARGS__)) : o)
    if (s->target_count) {
        char tname[32];
        const char *tn = dev->d.has_target ? spvcond_registry_target_name(dev->d.target, tname, sizeof(tname)) : NULL;
        if (tn)
            PART("%starget %s", sep, tn);
        else if (dev->d.has_target)
            PART("%starget %u", sep, dev->d.target);
        else
            PART("%sa target no constant names", sep);
        sep = ", ";
    }
    if (s->feature_count) {
        PART("%s%s", sep, dev->d.feature_count ? "features" : "no feature the module tests");
        for (size_t k = 0; k < dev->d.feature_count; k++) {
            char fname[32];
            const char *fn = spvcond_registry_feature_name(dev->d.target, dev->features[k], fname, sizeof(fname));
            if (fn)
                PART("%s%s", k ? "," : " ", fn);
            else
                PART("%s%u", k ? "," : " ", dev->features[k]);
        }
        sep = ", ";
    }
    if (s->pair_count) {
        char arch[64];
        spvcond_registry_describe_architecture(dev->d.category, dev->d.family, dev->d.architecture, arch,
                                               sizeof(arch));
        if (dev->d.has_architecture)
            PART("%sarchitecture %s", sep, arch);
        else
            PART("%san architecture family no constant names", sep);
        sep = ", ";
    }
    if (s->cap_count) {
        PART("%s%s", sep, dev->d.capability_count ? "capabilities" : "no capability the module tests");
        for (size_t k = 0; k < dev->d.capability_count; k++) {
            const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(SPVCOND_KIND_Capability, dev->caps[k]);
            PART("%s%s", k ? "," : " ", e ? e->name : "?");
        }
        sep = ", ";
    }
    for (size_t k = 0; k < s->free_count; k++) {
        uint32_t id = s->c->nodes[s->free_leaves[k]], spec_id;
        const char *v = (dev->free_bits >> k) & 1 ? "true" : "false";
        if (spvcond_spec_id_of(m, id, &spec_id))
            PART("%sSpecId %u %s", sep, spec_id, v);
        else
            PART("%s%%%u %s", sep, id, v);
        sep = ", ";
    }
    if (sep[0] == ' ') /* nothing to tell devices apart */
        snprintf(buf, n, "every device");
#undef PART
}

static spvcond_result
add_member(struct space *s, size_t *cap, struct member mb)
{
    spvcond_result r = spvcond_grow(s->c->m->ctx, (void **)&s->members, cap, s->member_count + 1, sizeof(*s->members));
    if (r == SPVCOND_OK)
        s->members[s->member_count++] = mb;
    return r;
}

static spvcond_result
add_group(struct space *s, size_t *cap, size_t inst, size_t first, bool copy)
{
    spvcond_result r = spvcond_grow(s->c->m->ctx, (void **)&s->groups, cap, s->group_count + 1, sizeof(*s->groups));
    if (r == SPVCOND_OK)
        s->groups[s->group_count++] = (struct group){inst, first, s->member_count - first, copy, false, 0, {0}};
    return r;
}

/* An entry point survives when its condition (a conditional one's) and its function's hold. */
static struct guard
entry_guard(const struct check *c, size_t inst)
{
    const uint32_t *w = spvcond_inst_words(c->m, inst);
    bool conditional = spvcond_opcode_of(w[0]) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL;
    uint32_t fn = w[conditional ? 3 : 2];
    return conditional ? (struct guard){w[1], c->decorated[fn]} : (struct guard){c->decorated[fn], 0};
}

/* The function of an entry point (conditional or not). */
static uint32_t
entry_function(const struct spvcond_module *m, size_t inst)
{
    const uint32_t *w = spvcond_inst_words(m, inst);
    return w[spvcond_opcode_of(w[0]) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL ? 3 : 2];
}

/* What to count per device: entry points that share a model and a name (two or more), and the
 * conditions of every OpConditionalCopyObjectINTEL. */
static spvcond_result
collect_groups(struct space *s)
{
    struct check *c = s->c;
    struct spvcond_module *m = c->m;
    size_t group_cap = 0, member_cap = 0;
    struct spvcond_entry_key *entries = spvcond_alloc_array(m->ctx, m->entry_point_count + 1, sizeof(*entries));
    if (!entries)
        return spvcond_oom(m->ctx);
    for (size_t k = 0; k < m->entry_point_count; k++)
        entries[k] = spvcond_entry_key_of(m, m->entry_points[k]);
    qsort(entries, m->entry_point_count, sizeof(*entries), spvcond_compare_entry_keys);
    spvcond_result r = SPVCOND_OK;
    for (size_t k = 0; k < m->entry_point_count && r == SPVCOND_OK;) {
        size_t end = k + 1;
        while (end < m->entry_point_count && spvcond_same_entry_key(&entries[end], &entries[k]))
            end++;
        if (end - k > 1) {
            size_t first = s->member_count;
            for (size_t e = k; e < end && r == SPVCOND_OK; e++)
                r = add_member(s, &member_cap, (struct member){entries[e].inst, entry_guard(c, entries[e].inst), 0,
                                                               entry_function(m, entries[e].inst), 0, {0}});
            if (r == SPVCOND_OK)
                r = add_group(s, &group_cap, entries[k].inst, first, false);
        }
        k = end;
    }
    spvcond_dealloc(m->ctx, entries);
    for (size_t i = m->section[SPVCOND_SECTION_FUNCTION]; i < m->inst_count && m->conditional_copy_count && r == SPVCOND_OK;
         i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t wc = spvcond_word_count_of(w[0]);
        if (spvcond_opcode_of(w[0]) != SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL || wc < 5)
            continue;
        size_t first = s->member_count;
        struct guard g = spvcond_validate_guard_of(c, i, w[2]);
        for (uint32_t k = 3; k + 1 < wc && r == SPVCOND_OK; k += 2)
            r = add_member(s, &member_cap, (struct member){i, g, w[k], w[k + 1], 0, {0}});
        if (r == SPVCOND_OK)
            r = add_group(s, &group_cap, i, first, true);
    }
    return r;
}

/* The name an entry point or a copy's function goes by, for the messages. */
static const char *
label_of(const struct spvcond_module *m, const struct group *g)
{
    const uint32_t *w = spvcond_inst_words(m, g->inst);
    if (!g->copy)
        return spvcond_inst_string(m, g->inst, spvcond_opcode_of(w[0]) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL ? 4 : 3);
    const struct spvcond_function *f = spvcond_function_of_inst(m, g->inst);
    const char *name = f ? spvcond_name_of(m, f->id) : NULL;
    return name ? name : "?";
}

/* One device: the groups' survivors counted. */
static void
check_device(struct space *s, const struct device *dev, const uint8_t *value)
{
    struct check *c = s->c;
    const struct spvcond_module *m = c->m;
    for (size_t k = 0; k < s->group_count; k++) {
        struct group *g = &s->groups[k];
        if (g->reported && !c->coverage) /* coverage counts on (a violation is said once, and quietly) */
            continue;
        size_t live = 0, applies = 0, survivors[2] = {SIZE_MAX, SIZE_MAX}; /* the first two that survive */
        size_t survivor = SIZE_MAX;
        for (size_t e = g->first; e < g->first + g->count; e++) {
            const struct member *mb = &s->members[e];
            bool on = holds(c, value, mb->guard);
            applies += on;
            if (on && (!g->copy || value[c->node[mb->condition] - 1]) && live++ < 2) {
                survivors[live - 1] = mb->inst;
                survivor = live == 1 ? e : survivor;
            }
        }
        if (live == 1 && s->members[survivor].kept++ == 0 && c->coverage)
            describe_device(s, dev, s->members[survivor].example, sizeof(s->members[survivor].example));
        char device[512];
        if (live > 1 && !g->reported) {
            describe_device(s, dev, device, sizeof(device));
            g->reported = true;
            if (g->copy)
                spvcond_validate_violation(c, g->inst, spvcond_inst_words(m, g->inst)[2], SPVCOND_ERROR_INVALID_ID,
                                           "%s gets %zu true conditions of OpConditionalCopyObjectINTEL %%%u in %s; "
                                           "exactly one must be true", device, live,
                                           spvcond_inst_words(m, g->inst)[2], label_of(m, g));
            else
                spvcond_validate_violation(c, survivors[1], 0, SPVCOND_ERROR_INVALID_ID,
                                           "%s keeps this entry point and instruction %zu's, both \"%s\": SPIR-V "
                                           "allows one entry point per name and execution model",
                                           device, survivors[0], label_of(m, g));
        } else if (live == 0 && (applies || !g->copy) && g->gaps++ == 0) {
            describe_device(s, dev, g->gap_device, sizeof(g->gap_device));
        }
    }
}

/* Each group's coverage to c->coverage (total 0: the devices were not counted). */
static spvcond_result
tell_coverage(struct space *s, uint64_t total)
{
    struct check *c = s->c;
    const struct spvcond_module *m = c->m;
    size_t most = 0;
    for (size_t k = 0; k < s->group_count; k++)
        most = s->groups[k].count > most ? s->groups[k].count : most;
    uint32_t *variants = spvcond_alloc_array(m->ctx, most + 1, sizeof(uint32_t));
    uint64_t *kept = spvcond_alloc_array(m->ctx, most + 1, sizeof(uint64_t));
    const char **examples = spvcond_alloc_array(m->ctx, most + 1, sizeof(char *));
    if (!variants || !kept || !examples) {
        spvcond_dealloc(m->ctx, variants);
        spvcond_dealloc(m->ctx, kept);
        spvcond_dealloc(m->ctx, (void *)examples);
        return spvcond_oom(m->ctx);
    }
    for (size_t k = 0; k < s->group_count; k++) {
        const struct group *g = &s->groups[k];
        for (size_t e = 0; e < g->count; e++) {
            const struct member *mb = &s->members[g->first + e];
            variants[e] = mb->variant;
            kept[e] = total ? mb->kept : 0;
            examples[e] = total && mb->kept ? mb->example : NULL;
        }
        spvcond_coverage cov = {sizeof(cov), label_of(m, g), !g->copy, g->copy ? spvcond_inst_words(m, g->inst)[2] : 0, g->count,
                                variants, kept, examples, total ? g->gaps : 0,
                                total && g->gaps ? g->gap_device : NULL, total};
        c->coverage(c->coverage_user, &cov);
    }
    spvcond_dealloc(m->ctx, variants);
    spvcond_dealloc(m->ctx, kept);
    spvcond_dealloc(m->ctx, (void *)examples);
    return SPVCOND_OK;
}

spvcond_result
spvcond_validate_devices(struct check *c)
{
    struct spvcond_module *m = c->m;
    struct space *s = spvcond_alloc(m->ctx, sizeof(*s));
    if (!s)
        return spvcond_oom(m->ctx);
    memset(s, 0, sizeof(*s));
    s->c = c;
    spvcond_result r = collect_groups(s);
    if (r != SPVCOND_OK || !s->group_count)
        goto done;
    uint64_t devices = collect_facts(s) ? device_count(s) : UINT64_MAX;
    uint64_t cost = devices == UINT64_MAX ? UINT64_MAX : devices * (c->node_count + s->member_count + 1);
    if (devices == UINT64_MAX || devices > (UINT64_C(1) << 32) || cost > c->budget) {
        if (c->coverage)
            r = tell_coverage(s, 0);
        else
            spvcond_report(m->ctx, SPVCOND_OK, SPVCOND_SEVERITY_WARNING, spvcond_where_inst(m, s->groups[0].inst, 0),
                       "not proven: whether entry points that share a name stay one and conditional copies keep "
                       "exactly one operand over every device (%s)",
                       devices == UINT64_MAX ? "conditions over integers, or more device facts than 16 of a kind"
                                             : "more devices than the proof budget covers");
        goto done;
    }
    c->budget -= cost;
    uint8_t *value = spvcond_alloc_array(m->ctx, c->node_count + 1, 1);
    if (!value) {
        r = spvcond_oom(m->ctx);
        goto done;
    }
    struct device dev;
    for (uint64_t d = 0; d < devices; d++) {
        decode(s, d, &dev);
        evaluate_device(s, &dev, value);
        check_device(s, &dev, value);
    }
    spvcond_dealloc(m->ctx, value);
    if (c->coverage) {
        r = tell_coverage(s, devices);
        goto done;
    }
    for (size_t k = 0; k < s->group_count; k++) {
        const struct group *g = &s->groups[k];
        char others[96] = "";
        if (!g->gaps || g->reported)
            continue;
        if (g->gaps > 1)
            snprintf(others, sizeof(others), " (as do %llu more of the %llu devices its constants tell apart)",
                     (unsigned long long)(g->gaps - 1), (unsigned long long)devices);
        if (g->copy)
            spvcond_report(m->ctx, SPVCOND_OK, SPVCOND_SEVERITY_WARNING,
                           spvcond_where_inst(m, g->inst, spvcond_inst_words(m, g->inst)[2]),
                           "%s gets no variant of %s%s: no condition of OpConditionalCopyObjectINTEL %%%u is true, "
                           "so specialize refuses that device (the module covers only some devices)",
                           g->gap_device, label_of(m, g), others, spvcond_inst_words(m, g->inst)[2]);
        else
            spvcond_report(m->ctx, SPVCOND_OK, SPVCOND_SEVERITY_WARNING, spvcond_where_inst(m, g->inst, 0),
                           "%s gets no variant of entry point \"%s\"%s: none of its %zu survives, so the "
                           "specialized module has no such entry point (the module covers only some devices)",
                           g->gap_device, label_of(m, g), others, g->count);
    }
done:
    spvcond_dealloc(m->ctx, s->groups);
    spvcond_dealloc(m->ctx, s->members);
    spvcond_dealloc(m->ctx, s);
    return r;
}
