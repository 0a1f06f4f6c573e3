// The fast-algorithm strategies (`winograd`, `fft`) and their bounds: the transforms are Lavin and Gray's and
// compute the correlation, every edge config passes in each fill under its class's bound, the injected bugs fail,
// and a dropped kernel tap still shows under the Winograd bound.

#include <cmath>
#include <cstdint>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/numerics/algorithm_bound.hpp"
#include "core/numerics/case.hpp"
#include "core/numerics/diff.hpp"
#include "core/numerics/reference.hpp"
#include "core/numerics/winograd.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/focus.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"
#include "tests/oracles/edge_configs.hpp"

namespace convcheck {

namespace {

const std::vector<std::string> fast = {"winograd", "fft"};

TEST(WinogradTransforms, LavinAndGraysF23AndF43) {
  const WinogradAxis f23 = winograd_axis(2, 3);
  // Lavin and Gray's G for F(2,3), rows 1..3 (row 0 is theirs times -1, and B^T's row 0 with it).
  const std::vector<double> g23{-1, 0, 0, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0, 0, 1};
  EXPECT_EQ(f23.g, g23);
  EXPECT_TRUE(f23.dyadic);
  const WinogradAxis f43 = winograd_axis(4, 3);
  EXPECT_DOUBLE_EQ(f43.g[0], 0.25);
  EXPECT_DOUBLE_EQ(f43.g[3], -1.0 / 6);
  EXPECT_DOUBLE_EQ(f43.g[10], 1.0 / 12); // row of point 2: [1, 2, 4] / 24
  EXPECT_FALSE(f43.dyadic);
}

// Every F(m, r) computes y_i = sum_t d_{i+t} g_t exactly in rational arithmetic, so in double to 1e-12.
TEST(WinogradTransforms, ComputeTheCorrelation) {
  for (int64_t m : {1, 2, 4, 6})
    for (int64_t r : {2, 3}) {
      const WinogradAxis axis = winograd_axis(m, r);
      std::vector<double> d(static_cast<size_t>(axis.alpha)), g(static_cast<size_t>(r));
      for (size_t i = 0; i < d.size(); ++i) d[i] = std::sin(1.0 + static_cast<double>(i));
      for (size_t t = 0; t < g.size(); ++t) g[t] = std::cos(2.0 + static_cast<double>(t));
      for (int64_t i = 0; i < m; ++i) {
        double y = 0, want = 0;
        for (int64_t j = 0; j < axis.alpha; ++j) {
          double u = 0, v = 0;
          for (int64_t t = 0; t < r; ++t) u += axis.g[static_cast<size_t>(j * r + t)] * g[static_cast<size_t>(t)];
          for (int64_t k = 0; k < axis.alpha; ++k) v += axis.bt[static_cast<size_t>(j * axis.alpha + k)] * d[static_cast<size_t>(k)];
          y += axis.at[static_cast<size_t>(i * axis.alpha + j)] * u * v;
        }
        for (int64_t t = 0; t < r; ++t) want += d[static_cast<size_t>(i + t)] * g[static_cast<size_t>(t)];
        EXPECT_NEAR(y, want, 1e-12) << "F(" << m << "," << r << ") output " << i;
      }
    }
}

TEST(FastAlgorithms, AgreeUnderTheirBoundOnEdgeConfigs) {
  for (const std::string &name : fast)
    for (FillMode fill : {FillMode::normal, FillMode::exact})
      for (int64_t ndims = 1; ndims <= max_ndims; ++ndims)
        for (const auto &edge : testing::edge_configs(ndims, true)) {
          const std::vector<std::string> problems = testing::disagreements(name, edge.descriptor, fill, true);
          EXPECT_TRUE(problems.empty()) << name << " " << edge.descriptor << ": " << problems.front();
        }
}

// The shrunk false alarm of the issue: one output of padding only, and few terms per element.
TEST(FastAlgorithms, PaddingOnlyOutputsGetTheAlgorithmsAllowance) {
  for (const char *descriptor : {"mb1ic1iw1oc1kw3pl1pr2", "mb1ic3ih5iw5oc2kh3kw3pt2pb2", "mb1g4ic4ih7iw7oc4kh3kw3pt1pl1"})
    for (const std::string &name : fast) {
      const std::vector<std::string> problems = testing::disagreements(name, descriptor, FillMode::normal, true);
      EXPECT_TRUE(problems.empty()) << name << " " << descriptor << ": " << problems.front();
    }
}

Outcome judge_under(const std::string &name, const char *descriptor, Direction direction, FillMode fill) {
  const Case c = make_case(parse_descriptor(descriptor), fill, 5, 1);
  return verify_one(c, compute_reference(c), *find_strategy(name), direction);
}

TEST(FastAlgorithms, VerdictsNameTheirClass) {
  const Outcome f = judge_under("fft", "mb2ic3ih6iw6oc2kh3kw3", Direction::output, FillMode::exact);
  EXPECT_EQ(f.verdict, Verdict::passed) << f.detail;
  EXPECT_EQ(f.judged_under, "fft (normwise per signal) (exact fill: the FFT is not exact; its bound)");
  const Problem p = parse_descriptor("mb1ic3ih6iw6oc2kh3kw3");
  // F(2,3) in exact fill is bit-exact, F(4,3) falls back to its bound and says so.
  const Case c = make_case(p, FillMode::exact, 5, 1);
  const Reference reference = compute_reference(c);
  const AlgorithmBound f23 = algorithm_bound(c, Direction::output, {AlgorithmKind::winograd, 2, {}}, reference[Direction::output]);
  EXPECT_EQ(f23.judged_under, "winograd F(2x2,3x3) (exact: integer inputs and dyadic transforms)");
  for (double bound : f23.element) EXPECT_EQ(bound, 0.0);
  const AlgorithmBound f43 = algorithm_bound(c, Direction::output, {AlgorithmKind::winograd, 4, {}}, reference[Direction::output]);
  EXPECT_EQ(f43.judged_under, "winograd F(4x4,3x3) (exact fill: transforms not exact in the format; its bound)");
  const AlgorithmBound strided = algorithm_bound(make_case(parse_descriptor("mb1ic3ih6iw6oc2kh3kw3sh2"), FillMode::normal, 5, 1),
                                                 Direction::output, {AlgorithmKind::winograd, 2, {}}, reference[Direction::output]);
  EXPECT_EQ(strided.judged_under, "direct (winograd takes stride 1 and dilation 1 on an axis of kernel 3 (stride 2, dilation 1))");
}

// A deconv judged under a fast algorithm's class is bounded as its equivalent conv's direction (its output as the
// conv's data gradient): read as a conv, the bound covered a conv-sized part of the output and left the rest at the
// underflow term, so a correctly rounded result failed (found by the iree_winograd campaign, docs/findings.md).
TEST(FastAlgorithms, ADeconvIsBoundedAsItsEquivalentConv) {
  for (const char *descriptor : {"mb1ic36ih3iw3oc34kh3kw3_deconv", "mb2g2ic4ih4iw5oc6kh3kw3pt1pl2_deconv"}) {
    const Case c = make_case(parse_descriptor(descriptor), FillMode::normal, 5, 1);
    const Reference reference = compute_reference(c);
    for (const Algorithm &algorithm : {Algorithm{AlgorithmKind::winograd, 4, {}}, Algorithm{AlgorithmKind::fft, 0, {}}})
      for (Direction direction : {Direction::output, Direction::grad_data}) {
        const Tensor rounded = reference[direction].expected.cast(DType::float32);
        const Outcome outcome = judge("fast", direction, rounded, reference[direction], c, algorithm);
        EXPECT_EQ(outcome.verdict, Verdict::passed)
            << descriptor << " " << to_string(algorithm) << " " << to_string(direction) << ": " << outcome.detail;
      }
  }
}

// Correct float32 Winograd implementations tiled otherwise than convcheck's own (issue 39): tiles shifted by each
// residue mod m on every axis, by a different one per axis, and aligned to the origin of the data gradient's
// halo-padded grad_output (the full correlation, grad_output padded by r - 1 on each side: shift pad_begin mod m);
// the data gradient both as the correlation with the flipped kernel and as the forward tiles transposed. On the
// shapes a Winograd server declares (kernel 3, stride 1, dilation 1), every fill, F(2,3), F(4,3) and F(6,3); none
// is flagged. Prints the flagged count per tile size and fill.
struct Tiled {
  std::string name;
  std::array<int64_t, 3> shift;
  bool transposed;
};

std::vector<Tiled> tilings(const Problem &p, Direction direction, const std::array<WinogradAxis, 3> &axes) {
  std::vector<Tiled> each;
  const int64_t m = axes[2].m;
  auto residues = [&](int64_t z, int64_t y, int64_t x) {
    std::array<int64_t, 3> shift{z, y, x};
    for (size_t a = 0; a < 3; ++a) shift[a] = (shift[a] % axes[a].m + axes[a].m) % axes[a].m;
    return shift;
  };
  for (bool transposed : {false, true}) {
    if (transposed && direction != Direction::grad_data) continue;
    const std::string form = transposed ? "transposed " : "";
    for (int64_t s = 0; s < m; ++s) each.push_back({fmt::format("{}shift {}", form, s), residues(s, s, s), transposed});
    each.push_back({form + "shift per axis", residues(1, 2, 3), transposed});
  }
  if (direction == Direction::grad_data) // tiles from the halo-padded grad_output's origin: output x is f = x + pad_begin
    each.push_back({"padded origin", residues(p.axes[0].pad_begin, p.axes[1].pad_begin, p.axes[2].pad_begin), false});
  return each;
}

Tensor winograd_tiled(const Case &c, Direction direction, const std::array<WinogradAxis, 3> &axes, const Tiled &tiled) {
  WinogradOptions options;
  options.tile_shift = tiled.shift;
  const CorrelationInputs<float> inputs =
      tiled.transposed ? transposed_inputs<float>(c, false) : correlation_inputs<float>(c, direction, false);
  Tensor result(DType::float32, result_shape(c.problem, direction));
  (tiled.transposed ? winograd_transposed<float> : winograd_correlate<float>)(
      inputs.shape, transform_set<float>(axes, false), inputs.input.data(), inputs.weight.data(), result.data<float>(),
      options, nullptr);
  return result;
}

Support winograd_server_shapes() {
  Support shapes{.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true};
  shapes.kernels = {3}, shapes.strides = {1}, shapes.dilations = {1};
  return shapes;
}

// The tiling envelope is at least the magnitude bracket of every tile shift, in both forms of the data gradient
// (docs/bounds.md, "Winograd"): what makes the bound hold wherever the tiles start.
TEST(WinogradBound, TheEnvelopeCoversEveryTiling) {
  const Support shapes = winograd_server_shapes();
  for (int64_t m : {2, 4, 6})
    for (uint64_t index = 0; index < 30; ++index) {
      const Case c = make_case(focused_problem(5, index, shapes, "winograd").problem, FillMode::normal, 5, index);
      const std::array<WinogradAxis, 3> axes = winograd_axes(c.problem, {AlgorithmKind::winograd, m, {}});
      const std::array<TransformSet<double>, 3> magnitudes = transform_set<double>(axes, true);
      for (Direction direction : {Direction::output, Direction::grad_data})
        for (bool transposed : {false, true}) {
          if (transposed && direction != Direction::grad_data) continue;
          const CorrelationInputs<double> inputs = correlation_inputs<double>(c, direction, true);
          const std::vector<double> envelope =
              enveloped_correlation(inputs.shape, axes, transposed, inputs.input.data(), inputs.weight.data());
          const CorrelationInputs<double> forward = transposed_inputs<double>(c, true);
          std::vector<double> tiled(envelope.size());
          for (const Tiled &tiling : tilings(c.problem, direction, axes)) {
            WinogradOptions options;
            options.tile_shift = tiling.shift;
            if (transposed)
              winograd_transposed(forward.shape, magnitudes, forward.input.data(), forward.weight.data(), tiled.data(), options);
            else
              winograd_correlate(inputs.shape, magnitudes, inputs.input.data(), inputs.weight.data(), tiled.data(), options);
            for (size_t i = 0; i < tiled.size(); ++i)
              ASSERT_GE(envelope[i] * (1 + 1e-12), tiled[i])
                  << format_descriptor(c.problem) << " F(" << m << ",3) " << to_string(direction) << " "
                  << (transposed ? "transposed " : "") << tiling.name << " element " << i;
          }
        }
    }
}

TEST(FastAlgorithms, WinogradPassesUnderItsBoundWhereverItsTilesStart) {
  const Support server_shapes = winograd_server_shapes();
  constexpr uint64_t problems = 150;
  int flagged_total = 0;
  for (int64_t m : {2, 4, 6})
    for (FillMode fill : {FillMode::normal, FillMode::exact, FillMode::mixed, FillMode::witness}) {
      int flagged = 0, judged = 0;
      std::string first;
      for (uint64_t index = 0; index < problems; ++index) {
        const uint64_t seed = 39 + static_cast<uint64_t>(m);
        const Case c = make_case(focused_problem(seed, index, server_shapes, "winograd").problem, fill, seed, index);
        const Reference reference = compute_reference(c);
        const Algorithm algorithm{AlgorithmKind::winograd, m, {}};
        const std::array<WinogradAxis, 3> axes = winograd_axes(c.problem, algorithm);
        for (Direction direction : {Direction::output, Direction::grad_data}) {
          const AlgorithmBound bound = algorithm_bound(c, direction, algorithm, reference[direction]);
          for (const Tiled &tiled : tilings(c.problem, direction, axes)) {
            const Diff diff = compare(winograd_tiled(c, direction, axes, tiled), reference[direction].expected,
                                      bound.element);
            ++judged;
            if (diff.ok) continue;
            if (flagged++ == 0)
              first = fmt::format("{} {} {}: {} (judged under {})", format_descriptor(c.problem), to_string(direction),
                                  tiled.name, diff.problem, bound.judged_under);
          }
        }
      }
      std::printf("F(%d,3) %s fill: %d of %d results flagged over %d problems%s%s\n", static_cast<int>(m),
                  to_string(fill).c_str(), flagged, judged, static_cast<int>(problems), first.empty() ? "" : ", first: ",
                  first.c_str());
      flagged_total += flagged;
    }
  EXPECT_EQ(flagged_total, 0);
}

TEST(FastAlgorithms, InjectedBugsFail) {
  EXPECT_TRUE(testing::fails_somewhere("winograd_wrong_point", "mb1ic2ih6iw6oc2kh3kw3", FillMode::normal));
  EXPECT_TRUE(testing::fails_somewhere("winograd_tile_edge", "mb1ic2ih7iw7oc2kh3kw3", FillMode::normal));
  EXPECT_FALSE(testing::fails_somewhere("winograd_tile_edge", "mb1ic2ih14iw14oc2kh3kw3", FillMode::normal));
  EXPECT_TRUE(testing::fails_somewhere("winograd_dgrad_unflipped", "mb1ic2ih6iw6oc2kh3kw3", FillMode::normal));
  EXPECT_TRUE(testing::fails_somewhere("fft_no_zero_pad", "mb1ic2ih8iw8oc2kh3kw3pt1pl1", FillMode::normal));
}

} // namespace

} // namespace convcheck

namespace convcheck {

// What a Winograd server declares in its hello ("kernels": [3], "strides": [1], "dilations": [1]) keeps the other
// shapes away, each axis of the problem's own checked, with the reason.
TEST(ShapeSupport, KernelsStridesAndDilationsPerAxis) {
  Support winograd_shapes{.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32},
                          .data_layouts = every_data_layout, .weight_layouts = every_weight_layout};
  winograd_shapes.kernels = {3}, winograd_shapes.strides = {1}, winograd_shapes.dilations = {1};
  EXPECT_EQ(winograd_shapes.refusal(parse_descriptor("mb1ic2ih6iw6oc2kh3kw3")), "");
  EXPECT_EQ(winograd_shapes.refusal(parse_descriptor("mb1ic2ih6iw6oc2kh3kw5")), "kernel 5 is not supported (kernels: 3)");
  EXPECT_EQ(winograd_shapes.refusal(parse_descriptor("mb1ic2ih6iw6oc2kh3kw3sh2")), "stride 2 is not supported (strides: 1)");
  EXPECT_EQ(winograd_shapes.refusal(parse_descriptor("mb1ic2iw9oc2kw3dlw2")), "dilation 2 is not supported (dilations: 1)");
}

} // namespace convcheck
