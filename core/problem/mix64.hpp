#pragma once
// SplitMix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014): a
// bijective 64-bit mix. Every deterministic choice of convcheck hashes (seed, case index, ...) with it: the
// generator's draws, the fill (core/numerics/fill.hpp), a case's ISA cap and a strategy's path. It lives with the
// problem, the lowest folder of core/, so that every folder may use it.

#include <cstdint>

namespace convcheck {

/// SplitMix64 finaliser: a bijective 64-bit mix. Inline: the fill calls it once per element.
constexpr uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

} // namespace convcheck
