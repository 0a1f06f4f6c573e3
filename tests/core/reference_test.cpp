// The reference against the definition written the slow, obvious way: every result element, every tap, padding
// tested per tap. Its loops are arranged for speed (core/naive_loops.hpp), so this checks that the arrangement
// visits exactly the definition's products: the values, the term counts and the sums of |products| of the bound.

#include "core/reference.hpp"

#include <cmath>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/conv_case.hpp"
#include "core/descriptor.hpp"
#include "core/generators.hpp"
#include "core/naive_loops.hpp"
#include "core/tolerance.hpp"

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

// Every (element, product) pair of `direction`, visited element by element with every tap tested.
template <class Visit> void definition(const ConvCase &cc, Direction direction, Visit visit) {
  const ConvConfig &c = cc.config;
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  const int64_t P = c.out_height(), Q = c.out_width(), H = c.in_height, W = c.in_width;
  const int64_t R = c.kernel_height, S = c.kernel_width;
  auto data = [&](int64_t n, int64_t i, int64_t h, int64_t w) {
    return cc.data.get(((n * c.in_channels + i) * H + h) * W + w);
  };
  auto weight = [&](int64_t k, int64_t ci, int64_t r, int64_t s) {
    return cc.weight.get(((k * cg + ci) * R + r) * S + s);
  };
  auto grad = [&](int64_t n, int64_t k, int64_t p, int64_t q) {
    return cc.grad_output.get(((n * c.out_channels + k) * P + p) * Q + q);
  };
  // The input position of output position `out` and tap `tap` along one axis, or -1 in the padding.
  auto at = [](int64_t out, int64_t stride, int64_t pad, int64_t tap, int64_t dilation, int64_t size) {
    const int64_t position = out * stride - pad + tap * dilation;
    return position >= 0 && position < size ? position : -1;
  };
  int64_t index = 0;
  for (int64_t a = 0; a < (direction == Direction::grad_weight ? c.out_channels : c.batch); ++a)
    for (int64_t b = 0; b < (direction == Direction::output        ? c.out_channels
                             : direction == Direction::grad_data ? c.in_channels
                                                                 : cg);
         ++b)
      for (int64_t y = 0; y < (direction == Direction::output ? P : direction == Direction::grad_data ? H : R); ++y)
        for (int64_t x = 0; x < (direction == Direction::output ? Q : direction == Direction::grad_data ? W : S);
             ++x, ++index) {
          Sum sum;
          if (direction == Direction::output) {
            for (int64_t ci = 0; ci < cg; ++ci)
              for (int64_t r = 0; r < R; ++r)
                for (int64_t s = 0; s < S; ++s) {
                  const int64_t h = at(y, c.stride_height, c.pad_top, r, c.dilation_height, H);
                  const int64_t w = at(x, c.stride_width, c.pad_left, s, c.dilation_width, W);
                  if (h >= 0 && w >= 0) sum.add(data(a, b / kg * cg + ci, h, w), weight(b, ci, r, s));
                }
          } else if (direction == Direction::grad_data) {
            // The p with y = p*sh - pt + r*dh, when there is one in range (q likewise).
            auto solve = [](int64_t in, int64_t pad, int64_t tap, int64_t dilation, int64_t stride, int64_t size) {
              const int64_t scaled = in + pad - tap * dilation;
              return scaled >= 0 && scaled % stride == 0 && scaled / stride < size ? scaled / stride : -1;
            };
            for (int64_t k = b / cg * kg; k < (b / cg + 1) * kg; ++k)
              for (int64_t r = 0; r < R; ++r)
                for (int64_t s = 0; s < S; ++s) {
                  const int64_t p = solve(y, c.pad_top, r, c.dilation_height, c.stride_height, P);
                  const int64_t q = solve(x, c.pad_left, s, c.dilation_width, c.stride_width, Q);
                  if (p >= 0 && q >= 0) sum.add(grad(a, k, p, q), weight(k, b % cg, r, s));
                }
          } else {
            for (int64_t n = 0; n < c.batch; ++n)
              for (int64_t p = 0; p < P; ++p)
                for (int64_t q = 0; q < Q; ++q) {
                  const int64_t h = at(p, c.stride_height, c.pad_top, y, c.dilation_height, H);
                  const int64_t w = at(q, c.stride_width, c.pad_left, x, c.dilation_width, W);
                  if (h >= 0 && w >= 0) sum.add(grad(n, a, p, q), data(n, a / kg * cg + b, h, w));
                }
          }
          visit(index, sum);
        }
}

bool all_integers(const Tensor &tensor) {
  for (int64_t i = 0; i < tensor.size(); ++i)
    if (tensor.get(i) != std::nearbyint(tensor.get(i))) return false;
  return true;
}

// The first difference from the definition, or "".
std::string difference_from_definition(const ConvCase &c) {
  const Reference reference = compute_reference(c);
  std::string problem;
  for (Direction direction : all_directions) {
    const DirectionReference &got = reference[direction];
    const Tensor &a = direction == Direction::output ? c.data : c.grad_output;
    const Tensor &b = direction == Direction::grad_weight ? c.data : c.weight;
    const bool integers = all_integers(a) && all_integers(b);
    const TermCounts counts = term_counts(c.config, direction);
    const Shape shape = result_shape(c.config, direction);
    if (got.expected.shape() != shape) return to_string(direction) + ": shape " + format_shape(got.expected.shape());
    definition(c, direction, [&](int64_t i, const Sum &sum) {
      const std::string where = fmt::format("{} {} element {}: ", format_descriptor(c.config), to_string(direction), i);
      // The same products in another order: equal up to double rounding of the sum, exactly in exact fill.
      const double value = got.expected.get(i), bound = got.bound[static_cast<size_t>(i)];
      const double want = error_bound(sum.abs_sum, sum.terms, c.config.dtype, integers);
      const int64_t terms = counts.at(i / shape[3] % shape[2], i % shape[3]);
      if (!problem.empty()) return;
      if (std::abs(value - sum.value) > 1e-12 * sum.abs_sum)
        problem = where + fmt::format("value {} instead of {}", value, sum.value);
      else if (terms != sum.terms) problem = where + fmt::format("{} terms instead of {}", terms, sum.terms);
      else if (std::abs(bound - want) > 1e-12 * want)
        problem = where + fmt::format("bound {} instead of {}", bound, want);
    });
  }
  return problem;
}

RC_GTEST_PROP(Reference, IsTheDefinitionWithItsBound, ()) {
  const ConvConfig config = *conv_configs();
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
