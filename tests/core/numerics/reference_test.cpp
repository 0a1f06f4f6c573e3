// The reference against the definition written the slow, obvious way: every result element, every tap, padding
// tested per tap. Its loops are arranged for speed (core/numerics/naive_loops.hpp), so this checks that the arrangement
// visits exactly the definition's products: the values, the term counts and the sums of |products| of the bound.

#include "core/numerics/reference.hpp"

#include <array>
#include <cmath>
#include <optional>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"
#include "core/numerics/naive_loops.hpp"
#include "core/numerics/tolerance.hpp"

namespace convcheck {
namespace {

// One element's sum by the definition, in double: value, sum of |products| and number of products.
struct Sum {
  double value = 0, abs_sum = 0;
  int64_t terms = 0;
  void add(double a, double b) {
    value += a * b;
    abs_sum += std::abs(a * b);
    ++terms;
  }
};

// Every (element, product) pair of `direction`, visited element by element with every tap tested, over the three
// spatial axes (unit outer axes for lower ranks), written independently of core/numerics/naive_loops.hpp.
template <class Visit> void definition(const Case &cc, Direction direction, Visit visit) {
  const Problem &c = cc.problem;
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  using Point = std::array<int64_t, 3>;
  Point in{}, out{}, kernel{};
  for (size_t a = 0; a < 3; ++a) in[a] = c.axes[a].in, out[a] = c.axes[a].out(), kernel[a] = c.axes[a].kernel;
  auto flat = [](const Point &extent, const Point &at) { return (at[0] * extent[1] + at[1]) * extent[2] + at[2]; };
  const int64_t in_volume = in[0] * in[1] * in[2], out_volume = out[0] * out[1] * out[2];
  const int64_t kernel_volume = kernel[0] * kernel[1] * kernel[2];
  auto data = [&](int64_t n, int64_t i, const Point &h) {
    return cc[Role::data].get((n * c.in_channels + i) * in_volume + flat(in, h));
  };
  auto weight = [&](int64_t k, int64_t ci, const Point &t) {
    return cc[Role::weight].get((k * cg + ci) * kernel_volume + flat(kernel, t));
  };
  auto grad = [&](int64_t n, int64_t k, const Point &o) {
    return cc[Role::grad_output].get((n * c.out_channels + k) * out_volume + flat(out, o));
  };
  // The input position of output position `o` and tap `t`, or nullopt when any axis falls outside the input.
  auto at = [&](const Point &o, const Point &t) -> std::optional<Point> {
    Point h{};
    for (size_t a = 0; a < 3; ++a) {
      const SpatialAxis &axis = c.axes[a];
      h[a] = o[a] * axis.stride - axis.pad_begin + t[a] * axis.dilation;
      if (h[a] < 0 || h[a] >= axis.in) return std::nullopt;
    }
    return h;
  };
  // Every point of a box, in row-major order.
  auto each = [](const Point &extent, auto f) {
    for (int64_t z = 0; z < extent[0]; ++z)
      for (int64_t y = 0; y < extent[1]; ++y)
        for (int64_t x = 0; x < extent[2]; ++x) f(Point{z, y, x});
  };
  const Point &element_extent = direction == Direction::output ? out : direction == Direction::grad_data ? in : kernel;
  int64_t index = 0;
  for (int64_t a = 0; a < (direction == Direction::grad_weight ? c.out_channels : c.batch); ++a)
    for (int64_t b = 0; b < (direction == Direction::output        ? c.out_channels
                             : direction == Direction::grad_data ? c.in_channels
                                                                 : cg);
         ++b)
      each(element_extent, [&](const Point &e) {
        Sum sum;
        if (direction == Direction::output) {
          for (int64_t ci = 0; ci < cg; ++ci)
            each(kernel, [&](const Point &t) {
              if (const auto h = at(e, t)) sum.add(data(a, b / kg * cg + ci, *h), weight(b, ci, t));
            });
        } else if (direction == Direction::grad_data) {
          // The output positions o and taps t with at(o, t) == e, in tap order.
          for (int64_t k = b / cg * kg; k < (b / cg + 1) * kg; ++k)
            each(kernel, [&](const Point &t) {
              each(out, [&](const Point &o) {
                if (at(o, t) == e) sum.add(grad(a, k, o), weight(k, b % cg, t));
              });
            });
        } else {
          for (int64_t n = 0; n < c.batch; ++n)
            each(out, [&](const Point &o) {
              if (const auto h = at(o, e)) sum.add(grad(n, a, o), data(n, a / kg * cg + b, *h));
            });
        }
        visit(index++, sum);
      });
}

bool all_integers(const Tensor &tensor) {
  for (int64_t i = 0; i < tensor.size(); ++i)
    if (tensor.get(i) != std::nearbyint(tensor.get(i))) return false;
  return true;
}

// The first difference from the definition, or "".
std::string difference_from_definition(const Case &c) {
  const Reference reference = compute_reference(c);
  std::string problem;
  for (Direction direction : all_directions) {
    const DirectionReference &got = reference[direction];
    const Tensor &a = direction == Direction::output ? c[Role::data] : c[Role::grad_output];
    const Tensor &b = direction == Direction::grad_weight ? c[Role::data] : c[Role::weight];
    const bool integers = all_integers(a) && all_integers(b);
    const TermCounts counts = term_counts(c.problem, direction);
    const Shape shape = result_shape(c.problem, direction);
    if (got.expected.shape() != shape) return to_string(direction) + ": shape " + format_shape(got.expected.shape());
    definition(c, direction, [&](int64_t i, const Sum &sum) {
      const std::string where = fmt::format("{} {} element {}: ", format_descriptor(c.problem), to_string(direction), i);
      // The same products in another order: equal up to double rounding of the sum, exactly in exact fill.
      double value = got.expected.get(i), bound = got.bound[static_cast<size_t>(i)];
      const double want = error_bound(sum.abs_sum, sum.terms, sum.value, c.problem.precision.acc,
                                      result_dtype(c.problem, direction), integers);
      // At a tie of the exact-sum rule the reference is the even neighbour, with bound 0 (tie_rounding).
      const double tie = ErrorBound(c.problem.precision.acc, result_dtype(c.problem, direction), integers)
                             .tie_rounding(sum.abs_sum, sum.value);
      if (!std::isnan(tie)) {
        if (value != tie || bound != 0) problem = where + fmt::format("{} (bound {}) at the tie {}", value, bound, sum.value);
        return;
      }
      // The spatial coordinates of element i: the last ndims axes, unit outer axes padding them to three.
      int64_t coordinates[max_ndims] = {0, 0, 0}, rest = i;
      for (size_t axis = shape.size(); axis-- > 2;) {
        coordinates[max_ndims - (shape.size() - axis)] = rest % shape[axis];
        rest /= shape[axis];
      }
      const int64_t terms = counts.at(coordinates[0], coordinates[1], coordinates[2]);
      if (!problem.empty()) return;
      if (std::abs(value - sum.value) > 1e-12 * sum.abs_sum)
        problem = where + fmt::format("value {} instead of {}", value, sum.value);
      else if (terms != sum.terms) problem = where + fmt::format("{} terms instead of {}", terms, sum.terms);
      // The bound's storage term is the value's distance to the nearest number of the result's format, which
      // moves by as much as the value does: the two orders' values may differ by their double rounding.
      else if (std::abs(bound - want) > 1e-12 * want + std::abs(value - sum.value))
        problem = where + fmt::format("bound {} instead of {}", bound, want);
    });
  }
  return problem;
}

RC_GTEST_PROP(Reference, IsTheDefinitionWithItsBound, ()) {
  const Problem config = *convs(); // the conv definition (deconv_reference_test holds deconvs to theirs)
  const auto fill = *rc::gen::element(FillMode::normal, FillMode::exact);
  const std::string problem = difference_from_definition(make_case(config, fill, *rc::gen::arbitrary<uint64_t>(), 0));
  RC_ASSERT(problem == "");
}

TEST(Reference, CountsOnlyTheTapsInsideOnStridedDilatedPaddedConfigs) {
  for (const char *descriptor : {"g2mb2ic4ih5iw7oc6kh3kw2sh2dlh2pt1pb2pl3", "mb1ic1ih1iw1oc1kh3kw3pt1pb1pl1pr1",
                                 "mb2ic3ih7iw4oc2kh2kw3sh3sw2dlw2pr2", "g3mb1ic3ih6oc3kh4sh5pt3"})
    for (FillMode fill : {FillMode::normal, FillMode::exact})
      EXPECT_EQ(difference_from_definition(make_case(parse_descriptor(descriptor), fill, 5, 1)), "");
}

} // namespace
} // namespace convcheck
