// A smaller tensor carries its source's window: at the start, at the end, and its own draw past the source.

#include "core/numerics/carried_inputs.hpp"

#include <gtest/gtest.h>

#include "core/problem/descriptor.hpp"

namespace convcheck {
namespace {

Tensor counting(const Shape &shape) {
  Tensor tensor(DType::float64, shape);
  for (int64_t i = 0; i < tensor.size(); ++i) tensor.set(i, static_cast<double>(i));
  return tensor;
}

std::vector<double> values(const Tensor &tensor) {
  std::vector<double> all;
  for (int64_t i = 0; i < tensor.size(); ++i) all.push_back(tensor.get(i));
  return all;
}

TEST(CarriedInputs, KeepsTheWindowAtTheStartOrTheEnd) {
  const Tensor source = counting({2, 3}); // rows 0 1 2 / 3 4 5
  EXPECT_EQ(values(carried(source, Tensor(DType::float64, {1, 2}), Anchor::start)), (std::vector<double>{0, 1}));
  EXPECT_EQ(values(carried(source, Tensor(DType::float64, {1, 2}), Anchor::end)), (std::vector<double>{4, 5}));
}

TEST(CarriedInputs, AnExtentThatGrewKeepsItsOwnDraw) {
  Tensor own(DType::float64, {1, 4});
  own.set(3, -1);
  EXPECT_EQ(values(carried(counting({2, 3}), std::move(own), Anchor::start)), (std::vector<double>{0, 1, 2, -1}));
}

TEST(CarriedInputs, AnotherRankOrFormatIsLeftAlone) {
  EXPECT_EQ(values(carried(counting({2, 3}), Tensor(DType::float64, {2}), Anchor::start)),
            (std::vector<double>{0, 0}));
  EXPECT_EQ(values(carried(counting({2, 3}), Tensor(DType::float32, {1, 2}), Anchor::start)),
            (std::vector<double>{0, 0}));
}

TEST(CarriedInputs, EveryInputOfACaseIsCarried) {
  const Case source = make_case(parse_descriptor("mb2ic3iw5oc2kw3"), FillMode::normal, 1, 0);
  const Case smaller = carried_inputs(source, make_case(parse_descriptor("mb1ic3iw4oc2kw3"), FillMode::normal, 1, 7),
                                      Anchor::start);
  EXPECT_EQ(smaller[Role::data].get(0), source[Role::data].get(0));
  EXPECT_EQ(smaller[Role::data].get(4 + 3), source[Role::data].get(5 + 3)); // channel 1, position 3
  EXPECT_EQ(values(smaller[Role::weight]), values(source[Role::weight]));
  EXPECT_EQ(smaller[Role::grad_output].get(1), source[Role::grad_output].get(1));
}

} // namespace
} // namespace convcheck
