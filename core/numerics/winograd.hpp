#pragma once
// Winograd minimal filtering F(m, r) per spatial axis, built from interpolation points, and one engine that runs
// it over a whole correlation: the `winograd` strategy runs it in float with the signed transforms; the Winograd
// bound (core/numerics/winograd_bound.cpp) bounds the same engine's run on absolute values with the absolute
// transforms under every tiling by the tiling envelope, and runs the engine itself for exact fill's largest
// intermediate.
//
// The transforms (Toom-Cook, transposed; Lavin and Gray, CVPR 2016; Barabasz et al., ACM TOMS 2020, section 3):
// with alpha = m + r - 1 points p_0..p_{alpha-2} and infinity, V_k the alpha x k matrix evaluating a polynomial
// of degree k-1 at the points (row [1, p, p^2, ...]; infinity's row takes the leading coefficient,
// [0, ..., 0, 1]) and f_i = prod_{j != i} (p_i - p_j) (1 for infinity), the correlation
// y_i = sum_t d_{i+t} g_t of one tile (i < m, d of length alpha) is
//
//   y = A^T [(G g) . (B^T d)],  A^T = V_m^T,  G = diag(1/f) V_r,  B^T = diag(f) V_alpha^{-T}
//
// (the scaling by f makes B^T integer for integer points; Lavin and Gray's F(2,3) and F(4,3) G are these). In
// several dimensions each axis applies its own matrices; an axis of kernel 1 has alpha = m = 1 and no transform.
// Tiles start at output 0 on each axis unless shifted (WinogradOptions); a partial tile is computed whole and only
// its outputs in range kept. The data gradient is the correlation of grad_output with the flipped kernel
// (correlation_inputs), or the forward tiles transposed (winograd_transposed).

#include <array>
#include <cstdint>
#include <vector>

#include "core/numerics/algorithm.hpp"
#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"

namespace convcheck {

/// The matrices of F(m, r) on one axis, row-major.
struct WinogradAxis {
  int64_t m = 1, r = 1, alpha = 1;
  std::vector<double> at; ///< m x alpha
  std::vector<double> g;  ///< alpha x r
  std::vector<double> bt; ///< alpha x alpha
  /// Every entry is a float32 number whose denominator is a power of two (F(2,3)'s are: 0, +-1, +-1/2).
  bool dyadic = true;
  /// log2 of the largest denominator among the entries of G, B^T and A^T (0 for integers).
  int denominator_bits = 0;
};

/// F(m, r) from `points` (alpha - 1 finite points; empty: Lavin and Gray's). r = 1 gives the identity (m = 1).
/// Throws InputError when the count is wrong.
WinogradAxis winograd_axis(int64_t m, int64_t r, const std::vector<Point> &points = {});

/// A correlation out[n, g*OG + o][x] = sum_{c < IG, t} in[n, g*IG + c][x - pad_begin + t] * weight[g*OG + o][c][t]
/// over three spatial axes (unit outer axes for lower ranks), taps outside [0, in) contributing nothing.
struct Correlation {
  int64_t batch = 1, groups = 1, in_per_group = 1, out_per_group = 1;
  std::array<int64_t, 3> in{1, 1, 1}, kernel{1, 1, 1}, pad_begin{0, 0, 0}, out{1, 1, 1};
};

/// The output and data gradient of a stride-1, dilation-1 problem as a Correlation with its two inputs; the data
/// gradient correlates grad_output with the kernel flipped and transposed per group ([C][K/G][taps]).
template <class T> struct CorrelationInputs {
  Correlation shape;
  std::vector<T> input, weight;
};
/// `absolute`: every value replaced by its magnitude (for the bound). The case's tensors must be `T` or widen to it.
template <class T>
CorrelationInputs<T> correlation_inputs(const Case &conv_case, Direction direction, bool absolute);
/// The data gradient's inputs for winograd_transposed: the forward Correlation with grad_output as its input and the
/// weight as it is.
template <class T> CorrelationInputs<T> transposed_inputs(const Case &conv_case, bool absolute);

/// Why F(m, 3)-style transforms cannot run `direction` of `problem` ("" when they can): grad_weight, or an axis of
/// kernel over 1 with a stride or dilation over 1.
std::string winograd_refusal(const Problem &problem, Direction direction);

/// The axis matrices of `algorithm` for `problem` (kernel 1 axes: identity), in T.
template <class T> struct TransformSet {
  int64_t m = 1, r = 1, alpha = 1;
  std::vector<T> at, g, bt;
};
std::array<WinogradAxis, 3> winograd_axes(const Problem &problem, const Algorithm &algorithm);
template <class T> std::array<TransformSet<T>, 3> transform_set(const std::array<WinogradAxis, 3> &axes, bool absolute);

struct WinogradOptions {
  bool drop_last_partial_tile = false; ///< injected bug winograd_tile_edge
  /// Per axis, how many outputs before output 0 the first tile starts (0 <= shift < m): output x sits at position
  /// (x + shift) mod m of its tile. 0 is convcheck's own tiling; a correct implementation may use any.
  std::array<int64_t, 3> tile_shift{0, 0, 0};
};

/// Runs the correlation tile by tile; `out` receives batch * groups * out_per_group * volume(out) values.
/// `peak`, when given, receives the largest magnitude of any intermediate (for the exact-fill rule).
template <class T>
void winograd_correlate(const Correlation &shape, const std::array<TransformSet<T>, 3> &axes, const T *input,
                        const T *weight, T *out, const WinogradOptions &options = {}, double *peak = nullptr);

/// The data gradient of the forward correlation `shape` by its tiles transposed (the adjoint of winograd_correlate):
/// per tile of the output, d += B [(G g) . (A y)] per axis with A = (A^T)^T and B = (B^T)^T, the tiles' overlapping
/// inputs summed. `grad_output` is [N][K][out], `weight` the forward one ([K][C/G][taps]); `grad_input` receives
/// batch * groups * in_per_group * volume(in) values. `peak` as above (for magnitudes: the sums are largest at the end).
template <class T>
void winograd_transposed(const Correlation &shape, const std::array<TransformSet<T>, 3> &axes, const T *grad_output,
                         const T *weight, T *grad_input, const WinogradOptions &options = {}, double *peak = nullptr);

/// The tiling envelope of one axis (core/numerics/winograd_envelope.cpp): r x (alpha + m - 1), row-major,
/// E[t][q + m - 1] = max over tile positions i < m of sum_j |A^T_ij| |G_jt| |B^T_j,q+i|; turned round (both indices
/// reversed) for the transposed form. [1] on an axis without a transform.
std::vector<double> tiling_envelope(const WinogradAxis &axis, bool transposed);

/// The correlation `shape` of magnitudes `input`, `weight` with each axis's tiling envelope in place of the kernel:
/// out[x] = sum_{c, t} weight_t sum_q E[t][q] input[x - pad - (m-1) + q]. At least the bracket winograd_correlate
/// computes on the same magnitudes with |A^T|, |G|, |B^T| under every tile shift; with `transposed`, on the data
/// gradient's correlation_inputs, at least winograd_transposed's under every shift.
std::vector<double> enveloped_correlation(const Correlation &shape, const std::array<WinogradAxis, 3> &axes,
                                          bool transposed, const double *input, const double *weight);

} // namespace convcheck
