#include "core/problem/direction.hpp"

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/problem/op.hpp"

namespace convcheck {

namespace {

// In Role order. A gradient has the shape and format of the tensor it is the gradient of.
const std::array<RoleInfo, 6> roles{{
    {Role::data, "data", &Problem::data_shape, &Precision::src, 1},
    {Role::weight, "weight", &Problem::weight_shape, &Precision::weight, 2},
    {Role::output, "output", &Problem::output_shape, &Precision::dst, 0},
    {Role::grad_output, "grad_output", &Problem::output_shape, &Precision::dst, 3},
    {Role::grad_data, "grad_data", &Problem::data_shape, &Precision::src, 0},
    {Role::grad_weight, "grad_weight", &Problem::weight_shape, &Precision::weight, 0},
}};

// In Direction order. Every op has these three; what each is computed as is the op's row (core/problem/op.hpp).
const std::array<DirectionInfo, 3> conv_directions{{
    {Direction::output, "output", {Role::data, Role::weight}, Role::output},
    {Direction::grad_data, "grad_data", {Role::grad_output, Role::weight}, Role::grad_data},
    {Direction::grad_weight, "grad_weight", {Role::grad_output, Role::data}, Role::grad_weight},
}};

} // namespace

std::span<const RoleInfo> role_table() { return roles; }
const RoleInfo &info(Role role) { return roles[static_cast<size_t>(role)]; }

std::span<const DirectionInfo> direction_table() { return conv_directions; }

std::span<const DirectionInfo> directions(Op op) { return info(op).directions; }

std::vector<Direction> direction_list(Op op) {
  std::vector<Direction> list;
  for (const DirectionInfo &each : directions(op)) list.push_back(each.direction);
  return list;
}

const DirectionInfo &info(Direction direction) { return conv_directions[static_cast<size_t>(direction)]; }

std::optional<Direction> direction_named(std::string_view name) {
  for (const DirectionInfo &each : conv_directions)
    if (name == each.name) return each.direction;
  return std::nullopt;
}

Direction parse_direction(std::string_view name, std::string_view what) {
  if (const std::optional<Direction> direction = direction_named(name)) return *direction;
  throw InputError(fmt::format("{} '{}' is not output, grad_data or grad_weight", what, name));
}

} // namespace convcheck
