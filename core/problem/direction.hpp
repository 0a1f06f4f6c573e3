#pragma once
// Tensors by role, and the directions of an op as data: which roles each reads and which it produces. The
// machinery (inputs, reference, strategies, case files, reports) asks these tables instead of naming tensors, so
// an op declares its directions here and reuses everything else.
//
//   direction     reads                  produces      conv's definition (core/numerics/naive_loops.hpp)
//   output        data, weight           output        forward
//   grad_data     grad_output, weight    grad_data     backward data
//   grad_weight   grad_output, data      grad_weight   backward weights

#include <array>
#include <map>
#include <optional>
#include <string_view>
#include <cstdint>
#include <span>
#include <string>

#include "core/problem/problem.hpp"

namespace convcheck {

enum class Role { data, weight, output, grad_output, grad_data, grad_weight };
inline constexpr size_t role_count = 6;

struct RoleInfo {
  Role role;
  const char *name;                 ///< dataset name in case files: "data", "grad_output"
  Shape (Problem::*shape)() const;  ///< its canonical shape
  DType Precision::*dtype;          ///< its storage format
  uint64_t fill_stream;             ///< which stream of random numbers fills it (core/numerics/fill.hpp); 0: none
};

/// Every role, in Role order.
std::span<const RoleInfo> role_table();
const RoleInfo &info(Role role);
/// "grad_output".
inline std::string to_string(Role role) { return info(role).name; }
/// The canonical shape and storage format of `role` in `problem`.
inline Shape shape_of(const Problem &problem, Role role) { return (problem.*info(role).shape)(); }
inline DType dtype_of(const Problem &problem, Role role) { return problem.precision.*info(role).dtype; }

/// The roles a case carries as inputs (read by some direction, produced by none): data, weight, grad_output.
inline constexpr std::array<Role, 3> input_roles{Role::data, Role::weight, Role::grad_output};

enum class Direction { output, grad_data, grad_weight };

struct DirectionInfo {
  Direction direction;
  const char *name;           ///< "output": result dataset name in case files and reports
  std::array<Role, 2> reads;  ///< the two inputs whose products it sums
  Role produces;
};

/// Every direction, in Direction order: what it reads and produces, in the op's own roles (the same for every op;
/// what each is computed as is the op's row, core/problem/op.hpp).
std::span<const DirectionInfo> direction_table();
/// The directions of `op`, in Direction order.
std::span<const DirectionInfo> directions(Op op);
/// The same, as the directions alone: what a run of every direction of a case of `op` is asked for.
std::vector<Direction> direction_list(Op op);
const DirectionInfo &info(Direction direction);

/// A value per direction (results, tallies, histograms), keyed by direction: a map, not fixed slots, so an op
/// with other directions needs no new layout.
template <class T> using ByDirection = std::map<Direction, T>;

inline constexpr std::array<Direction, 3> all_directions{Direction::output, Direction::grad_data,
                                                         Direction::grad_weight};

/// "output", "grad_data", "grad_weight": dataset names in case files.
inline std::string to_string(Direction direction) { return info(direction).name; }
/// The direction called `name`, or nullopt.
std::optional<Direction> direction_named(std::string_view name);
/// The direction called `name`; throws InputError "{what} '{name}' is not output, grad_data or grad_weight".
Direction parse_direction(std::string_view name, std::string_view what);

/// The canonical shape of a direction's result.
inline Shape result_shape(const Problem &problem, Direction direction) {
  return shape_of(problem, info(direction).produces);
}
/// The storage format of a direction's result.
inline DType result_dtype(const Problem &problem, Direction direction) {
  return dtype_of(problem, info(direction).produces);
}

} // namespace convcheck
