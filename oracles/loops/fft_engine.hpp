#pragma once
// A radix-2 complex float FFT (iterative Cooley-Tukey, twiddles computed in double and rounded once, so each is
// within u of the true root as Higham's Theorem 24.2 assumes) over one to three axes of power-of-two lengths,
// and convolution by it: the `fft` strategy's engine, complex64 as cuDNN's and the FFT algorithms use.

#include <array>
#include <complex>
#include <cstdint>
#include <vector>

#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"

namespace convcheck {

using Lengths = std::array<int64_t, 3>;

/// In place over the row-major block of `lengths` (each a power of two); the inverse includes the 1/L scaling.
void fft3(std::complex<float> *values, const Lengths &lengths, bool inverse);

struct FftOptions {
  /// Injected bug fft_no_zero_pad: each axis transformed at the power of two over the input alone, with no room
  /// for the kernel, so the product of spectra is a circular convolution and the ends wrap around.
  bool no_zero_pad = false;
};

/// The per-axis transform lengths `direction` of `problem` uses.
Lengths fft_lengths(const Problem &problem, const FftOptions &options = {});

/// `direction` of the case by FFT, in complex float; the result in the case's float32 format.
Tensor fft_convolution(const Case &conv_case, Direction direction, const FftOptions &options = {});

} // namespace convcheck
