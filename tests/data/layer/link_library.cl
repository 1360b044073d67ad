// SPDX-License-Identifier: MIT
// One half of a program linked from two modules (tests/layer_programs.py): a function the other module
// imports.
float twice(float x)
{
    return 2.0f * x;
}
