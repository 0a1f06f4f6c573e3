#pragma once
// The three results a convolution strategy computes, named as in case files.

#include <array>
#include <string>

namespace convcheck {

enum class Direction { output, grad_data, grad_weight };

inline constexpr std::array<Direction, 3> all_directions{Direction::output, Direction::grad_data,
                                                         Direction::grad_weight};

/// "output", "grad_data", "grad_weight": dataset names in case files.
inline std::string to_string(Direction direction) {
  switch (direction) {
  case Direction::output: return "output";
  case Direction::grad_data: return "grad_data";
  case Direction::grad_weight: return "grad_weight";
  }
  return "?";
}

} // namespace convcheck
