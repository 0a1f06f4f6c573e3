#pragma once
// The bound a result is judged under, by the algorithm class that produced it (core/numerics/algorithm.hpp).
// `direct` is the reference's own per-element bound (core/numerics/tolerance.hpp), unchanged. docs/bounds.md
// derives the other two and says what each still catches.
//
// winograd (core/numerics/winograd_bound.cpp), per element, for every tiling: a correct F(m, r) computation in a
//   format of unit roundoff u is within gamma_k(u) * W_abs of the exact result (Barabasz, Anderson, Soodhalter and
//   Gregg, "Error analysis and improving the accuracy of Winograd convolution for deep neural networks", ACM TOMS
//   46(4), 2020, Theorem 1's componentwise form), W_abs its tiles' bracket |A^T| [(|G| |g|) . (|B^T| |d|)] on
//   |inputs| and k the effective number of terms: the channel sum plus, per transformed axis, the dot products of
//   B^T, G and A^T (alpha, r and alpha terms) each plus one for the rounding of the transform constants, plus one for
//   the product. W_abs depends on where the tiles start; the tiling envelope W_E (core/numerics/winograd.hpp,
//   `enveloped_correlation`) bounds it for every start, and for grad_data also the forward tiles transposed (k plus
//   the ceil(alpha / m) per axis of their overlap-add). Judged as 2*(gamma_k(u) + gamma_k(2^-53)) * W_E plus an
//   underflow allowance, and never below the direct bound (a partial tile computed directly). In exact fill
//   (integer inputs) the bound is the direct one, zero, when the transforms are dyadic (F(2,3)'s are) and every
//   intermediate of every tile shift, scaled by their denominators, stays under the format's exact integer limit;
//   otherwise the Winograd bound applies and the verdict says so.
//
// fft (core/numerics/fft_bound.cpp), normwise per output signal (the spatial block of one (image, channel) of the
//   result, or one (output, input channel) kernel of the weight gradient): with L the transform length and
//   eps = t*eta/(1 - t*eta), t = log2 L, eta = mu + gamma_4(sqrt(2) + mu), mu = u (Higham, Accuracy and Stability
//   of Numerical Algorithms, 2nd ed., Theorem 24.2),
//     ||computed - exact||_2 <= 2 * (e1 + eps + eps*e1 + u) * sqrt(L) * sum_c ||x_c||_2 ||h_c||_2,
//     e1 = (1 + eps)^2 (1 + sqrt(2) gamma_2) (1 + gamma_C) - 1,
//   summed over the C pairs of input signals the output signal's sum runs over.

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/numerics/algorithm.hpp"
#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"

namespace convcheck {

struct AlgorithmBound {
  std::vector<double> element; ///< per element, when signal_size is 0
  int64_t signal_size = 0;     ///< > 0: judged normwise over each run of signal_size consecutive elements
  std::vector<double> signal;  ///< the bound of each such run's 2-norm error
  std::string judged_under;    ///< "direct", "winograd F(4x4,3x3)", "fft (normwise per signal)", with any note
  /// Why the result cannot be judged under its class at all ("" when it can): a bound that is infinite somewhere
  /// would pass anything there, so such a result is skipped with this reason instead.
  std::string unjudgeable;
};

/// gamma_k(u) = k*u / (1 - k*u) (Higham section 3.1); infinite when k*u >= 1/2.
inline double gamma_of(double k, double u) {
  const double ku = k * u;
  return ku < 0.5 ? ku / (1 - ku) : std::numeric_limits<double>::infinity();
}

/// The bound of `direction`'s result of `conv_case` under `algorithm`; direct returns the reference's bound.
/// A Winograd class on a direction or problem its transforms do not apply to is judged as direct, saying why.
AlgorithmBound algorithm_bound(const Case &conv_case, Direction direction, const Algorithm &algorithm,
                               const DirectionReference &reference);

AlgorithmBound winograd_bound(const Case &conv_case, Direction direction, const Algorithm &algorithm,
                              const DirectionReference &reference);
AlgorithmBound fft_bound(const Case &conv_case, Direction direction);
/// direct:storage: the reference's bound with the result's format (or `sums_format`, when given) as the accumulation
/// format, where that format is narrower than the problem's (a float16 result summed in float16); the reference's
/// own bound elsewhere. Unjudgeable where a sum is too long for that format to bound ((n + 1) * u >= 1/2: past 1,022
/// terms in float16, 126 in bfloat16).
AlgorithmBound storage_sums_bound(const Case &conv_case, Direction direction, const DirectionReference &reference,
                                  std::optional<DType> sums_format = std::nullopt);

/// Whether every element of `tensor` is an integer.
bool all_integers(const Tensor &tensor);

} // namespace convcheck
