/* SPDX-License-Identifier: MIT */
/* The edit list: what happened to each instruction (kept, deleted, replaced), replacements by
 * instruction, insertions by position, new ids. */
#include "ir/edit.h"

#include <string.h>

#include "ir/index.h"

static spvcond_result
pool_append(struct spvcond_module *m, const uint32_t *words, uint32_t count, uint32_t *offset)
{
    struct spvcond_edits *e = &m->edits;
    if (e->pool_len + count > UINT32_MAX - 1)
        return spvcond_report(m->ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "more than 2^32 words of edits");
    spvcond_result r = spvcond_grow(m->ctx, (void **)&e->pool, &e->pool_cap, e->pool_len + count, sizeof(uint32_t));
    if (r != SPVCOND_OK)
        return r;
    memcpy(e->pool + e->pool_len, words, count * sizeof(uint32_t));
    *offset = (uint32_t)e->pool_len;
    e->pool_len += count;
    return SPVCOND_OK;
}

/* Check that `words` is a sequence of whole instructions, so the output stays parseable. */
static spvcond_result
check_instructions(struct spvcond_module *m, const uint32_t *words, uint32_t count)
{
    uint32_t p = 0;
    while (p < count) {
        uint32_t wc = spvcond_word_count_of(words[p]);
        if (wc == 0 || wc > count - p)
            return spvcond_report(m->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                                  "edit words are not whole instructions (word count %u at word %u of %u)", wc, p,
                                  count);
        p += wc;
    }
    return count ? SPVCOND_OK
                 : spvcond_report(m->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                                  "empty edit");
}

static size_t
replacement_slot(const struct spvcond_edits *e, size_t inst)
{
    size_t mask = e->replaced_cap - 1, k = ((uint32_t)inst * 2654435761u) & mask;
    while (e->replaced[k].inst_plus_one && e->replaced[k].inst_plus_one != inst + 1)
        k = (k + 1) & mask;
    return k;
}

/* For a replaced instruction (spvcond_edit_replacement). */
const uint32_t *
spvcond_edit_replacement_record(const struct spvcond_module *m, size_t inst)
{
    const struct spvcond_edits *e = &m->edits;
    return e->pool + e->replaced[replacement_slot(e, inst)].record;
}

/* Words instruction `inst` takes in the output as edited so far. */
static uint32_t
out_words(const struct spvcond_module *m, size_t inst)
{
    const uint32_t *record = spvcond_edit_replacement(m, inst);
    if (record)
        return record[0];
    if (spvcond_edit_is_deleted(m, inst))
        return 0;
    return m->inst[inst + 1] - m->inst[inst];
}

static spvcond_result
make_state(struct spvcond_module *m)
{
    if (!m->edits.state && !(m->edits.state = spvcond_alloc_array(m->ctx, m->inst_count + 1, 1)))
        return spvcond_oom(m->ctx);
    return SPVCOND_OK;
}

/* Room for one more replaced instruction, at most half the slots full. */
static spvcond_result
replacement_room(struct spvcond_module *m)
{
    struct spvcond_edits *e = &m->edits;
    if (2 * (e->replaced_len + 1) <= e->replaced_cap)
        return SPVCOND_OK;
    size_t cap = e->replaced_cap ? 2 * e->replaced_cap : 64;
    struct spvcond_replacement *old = e->replaced, *t = spvcond_alloc_array(m->ctx, cap, sizeof(*t));
    if (!t)
        return spvcond_oom(m->ctx);
    size_t old_cap = e->replaced_cap;
    e->replaced = t;
    e->replaced_cap = cap;
    for (size_t k = 0; k < old_cap; k++)
        if (old[k].inst_plus_one)
            t[replacement_slot(e, old[k].inst_plus_one - 1)] = old[k];
    spvcond_dealloc(m->ctx, old);
    return SPVCOND_OK;
}

spvcond_result
spvcond_edit_delete(struct spvcond_module *m, size_t inst)
{
    struct spvcond_edits *e = &m->edits;
    if (inst >= m->inst_count)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    spvcond_result r = make_state(m);
    if (r != SPVCOND_OK)
        return r;
    if (e->state[inst] != SPVCOND_EDIT_DELETED)
        e->count++;
    e->word_delta -= out_words(m, inst);
    e->state[inst] = SPVCOND_EDIT_DELETED; /* a replacement's slot stays, unread */
    return SPVCOND_OK;
}

spvcond_result
spvcond_edit_delete_range(struct spvcond_module *m, size_t begin, size_t end, size_t *newly)
{
    struct spvcond_edits *e = &m->edits;
    *newly = 0;
    if (begin > end || end > m->inst_count)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    spvcond_result r = make_state(m);
    size_t kept = 0;
    int64_t words = 0;
    for (size_t i = begin; i < end && r == SPVCOND_OK; i++) {
        size_t j = spvcond_edit_state_run(e->state, SPVCOND_EDIT_KEPT, i, end); /* no edit touched [i, j) */
        memset(e->state + i, SPVCOND_EDIT_DELETED, j - i);
        kept += j - i;
        words += m->inst[j] - m->inst[i];
        if ((i = j) < end && e->state[i] == SPVCOND_EDIT_REPLACED) {
            r = spvcond_edit_delete(m, i);
            ++*newly;
        }
    }
    e->count += kept;
    e->word_delta -= words;
    *newly += kept;
    return r;
}

spvcond_result
spvcond_edit_replace(struct spvcond_module *m, size_t inst, const uint32_t *words, uint32_t count)
{
    struct spvcond_edits *e = &m->edits;
    spvcond_result r;
    if (inst >= m->inst_count)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if ((r = check_instructions(m, words, count)) != SPVCOND_OK || (r = make_state(m)) != SPVCOND_OK ||
        (r = replacement_room(m)) != SPVCOND_OK)
        return r;
    /* Stored as a (count, words...) record so the writer knows the length. */
    uint32_t offset = 0, dummy;
    if ((r = pool_append(m, &count, 1, &offset)) != SPVCOND_OK || (r = pool_append(m, words, count, &dummy)) != SPVCOND_OK)
        return r;
    e->word_delta -= out_words(m, inst);
    size_t k = replacement_slot(e, inst);
    if (!e->replaced[k].inst_plus_one)
        e->replaced_len++;
    e->replaced[k] = (struct spvcond_replacement){(uint32_t)inst + 1, offset};
    e->state[inst] = SPVCOND_EDIT_REPLACED;
    e->word_delta += count;
    e->count++;
    return SPVCOND_OK;
}

static spvcond_result
insert_at(struct spvcond_module *m, size_t before, uint32_t section, const uint32_t *words, uint32_t count)
{
    struct spvcond_edits *e = &m->edits;
    spvcond_result r;
    if (before > m->inst_count)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if ((r = check_instructions(m, words, count)) != SPVCOND_OK)
        return r;
    uint32_t offset = 0;
    if ((r = pool_append(m, words, count, &offset)) != SPVCOND_OK)
        return r;
    struct spvcond_insert *last = e->insert_len ? &e->inserts[e->insert_len - 1] : NULL;
    if (last && last->before == before && last->section == section && last->words + last->count == offset) {
        /* Right after the last insertion, at its place and in the pool: one run of words (a pass's
         * consecutive appends to a section, such as annotate's names and SpecIds; the writer copies the
         * run at once). */
        last->count += count;
        e->word_delta += count;
        e->count++;
        return SPVCOND_OK;
    }
    if ((r = spvcond_grow(m->ctx, (void **)&e->inserts, &e->insert_cap, e->insert_len + 1, sizeof(*e->inserts))) !=
        SPVCOND_OK)
        return r;
    last = e->insert_len ? &e->inserts[e->insert_len - 1] : NULL;
    if (last && (last->before > before || (last->before == before && last->section > section)))
        e->inserts_unordered = true;
    e->inserts[e->insert_len] = (struct spvcond_insert){(uint32_t)before, section, (uint32_t)e->insert_len, offset, count};
    e->insert_len++;
    e->word_delta += count;
    e->count++;
    return SPVCOND_OK;
}

spvcond_result
spvcond_edit_insert(struct spvcond_module *m, size_t before, const uint32_t *words, uint32_t count)
{
    /* The section of the instruction it goes before (empty sections there sort earlier). */
    uint32_t section = SPVCOND_SECTION_COUNT;
    for (uint32_t s = 0; s < SPVCOND_SECTION_COUNT && section == SPVCOND_SECTION_COUNT; s++)
        if (before >= m->section[s] && before < m->section[s + 1])
            section = s;
    return insert_at(m, before, section, words, count);
}

spvcond_result
spvcond_edit_prepend_to_section(struct spvcond_module *m, int section, const uint32_t *words, uint32_t count)
{
    if (section < 0 || section >= SPVCOND_SECTION_COUNT)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    return insert_at(m, m->section[section], (uint32_t)section, words, count);
}

spvcond_result
spvcond_edit_append_to_section(struct spvcond_module *m, int section, const uint32_t *words, uint32_t count)
{
    if (section < 0 || section >= SPVCOND_SECTION_COUNT)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    return insert_at(m, m->section[section + 1], (uint32_t)section, words, count);
}

spvcond_result
spvcond_edit_new_id(struct spvcond_module *m, uint32_t *id)
{
    if (m->edits.bound > SPVCOND_MAX_BOUND)
        return spvcond_report(m->ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "no id left: the bound would exceed the SPIR-V limit 0x%x", SPVCOND_MAX_BOUND);
    *id = m->edits.bound++;
    m->edits.count++;
    return SPVCOND_OK;
}

spvcond_result
spvcond_edit_begin_pass(struct spvcond_module *m, const char *what)
{
    if (m->edits.count)
        return spvcond_report(m->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "the module already has edits: emit it and parse the result before %s", what);
    if (m->opaque_count)
        return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, m->first_opaque, 0,
                                 "not %s: this instruction (or an operand of it) is unknown to our grammar, so its "
                                 "ids cannot be checked", what);
    return make_state(m);
}

void
spvcond_edit_abandon(struct spvcond_module *m)
{
    spvcond_edits_release(m);
    m->edits.bound = m->bound;
}

uint32_t
spvcond_encode_string(const char *s, uint32_t *out, uint32_t capacity)
{
    size_t len = strlen(s);
    size_t words = len / 4 + 1;
    if (words > capacity)
        return 0;
    memset(out, 0, words * sizeof(uint32_t));
    memcpy(out, s, len);
    return (uint32_t)words;
}

void
spvcond_edits_release(struct spvcond_module *m)
{
    struct spvcond_edits *e = &m->edits;
    spvcond_dealloc(m->ctx, e->state);
    spvcond_dealloc(m->ctx, e->replaced);
    spvcond_dealloc(m->ctx, e->pool);
    spvcond_dealloc(m->ctx, e->inserts);
    memset(e, 0, sizeof(*e));
}
