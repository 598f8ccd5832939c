#pragma once

// A property a fuzz target asserts: a violation stops the run where libFuzzer sees it as a crash
// and keeps the input (assert() would vanish in a release build).
inline void check(bool condition) {
    if (!condition)
        __builtin_trap();
}
