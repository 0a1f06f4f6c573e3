#include "core/run/held_back.hpp"

namespace convcheck {

namespace {
bool run_them = false;
} // namespace

bool run_held_back() { return run_them; }

void set_run_held_back(bool run) { run_them = run; }

} // namespace convcheck
