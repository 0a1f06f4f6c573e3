#pragma once
// The convolution written directly from its definition, one loop nest per direction. Both the double reference
// (core/reference.cpp, which also sums |products| for the error bound) and the `naive` strategy (in the case
// dtype) instantiate these, so there is one definition to read:
//
//   output[n,k,p,q]    = sum_{c,r,s} data[n, g*C/G + c, p*sh - pt + r*dh, q*sw - pl + s*dw] * weight[k,c,r,s]
//   grad_data[n,i,h,w] = sum over (k in group of i, r, s) with h = p*sh - pt + r*dh, w = q*sw - pl + s*dw
//                        for some in-range p, q of grad_output[n,k,p,q] * weight[k, i - g*C/G, r, s]
//   grad_weight[k,c,r,s] = sum_{n,p,q} grad_output[n,k,p,q] * data[n, g*C/G + c, p*sh - pt + r*dh, q*sw - pl + s*dw]
//
// where g = k / (K/G). Taps that fall in the padding contribute nothing and are not counted as terms.
// `Sum` has add(a, b) for one product; `emit(flat_index, const Sum &)` receives each finished element.

#include <cstdint>

#include "core/conv_config.hpp"

namespace convcheck {

template <class Sum, class In, class Emit>
void naive_forward(const ConvConfig &c, const In *data, const In *weight, Emit &&emit) {
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  const int64_t P = c.out_height(), Q = c.out_width(), H = c.in_height, W = c.in_width;
  const int64_t R = c.kernel_height, S = c.kernel_width;
  int64_t index = 0;
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t k = 0; k < c.out_channels; ++k)
      for (int64_t p = 0; p < P; ++p)
        for (int64_t q = 0; q < Q; ++q) {
          Sum sum;
          const int64_t g = k / kg;
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t r = 0; r < R; ++r) {
              const int64_t h = p * c.stride_height - c.pad_top + r * c.dilation_height;
              if (h < 0 || h >= H) continue;
              for (int64_t s = 0; s < S; ++s) {
                const int64_t w = q * c.stride_width - c.pad_left + s * c.dilation_width;
                if (w < 0 || w >= W) continue;
                sum.add(data[((n * c.in_channels + g * cg + ci) * H + h) * W + w],
                        weight[((k * cg + ci) * R + r) * S + s]);
              }
            }
          emit(index++, sum);
        }
}

template <class Sum, class In, class Emit>
void naive_grad_data(const ConvConfig &c, const In *grad_output, const In *weight, Emit &&emit) {
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  const int64_t P = c.out_height(), Q = c.out_width(), H = c.in_height, W = c.in_width;
  const int64_t R = c.kernel_height, S = c.kernel_width;
  int64_t index = 0;
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t i = 0; i < c.in_channels; ++i)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) {
          Sum sum;
          const int64_t g = i / cg, ci = i % cg;
          for (int64_t k = g * kg; k < (g + 1) * kg; ++k)
            for (int64_t r = 0; r < R; ++r) {
              const int64_t ph = h + c.pad_top - r * c.dilation_height;
              if (ph < 0 || ph % c.stride_height != 0 || ph / c.stride_height >= P) continue;
              for (int64_t s = 0; s < S; ++s) {
                const int64_t qw = w + c.pad_left - s * c.dilation_width;
                if (qw < 0 || qw % c.stride_width != 0 || qw / c.stride_width >= Q) continue;
                sum.add(grad_output[((n * c.out_channels + k) * P + ph / c.stride_height) * Q + qw / c.stride_width],
                        weight[((k * cg + ci) * R + r) * S + s]);
              }
            }
          emit(index++, sum);
        }
}

template <class Sum, class In, class Emit>
void naive_grad_weight(const ConvConfig &c, const In *grad_output, const In *data, Emit &&emit) {
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  const int64_t P = c.out_height(), Q = c.out_width(), H = c.in_height, W = c.in_width;
  const int64_t R = c.kernel_height, S = c.kernel_width;
  int64_t index = 0;
  for (int64_t k = 0; k < c.out_channels; ++k)
    for (int64_t ci = 0; ci < cg; ++ci)
      for (int64_t r = 0; r < R; ++r)
        for (int64_t s = 0; s < S; ++s) {
          Sum sum;
          const int64_t i = (k / kg) * cg + ci;
          for (int64_t n = 0; n < c.batch; ++n)
            for (int64_t p = 0; p < P; ++p) {
              const int64_t h = p * c.stride_height - c.pad_top + r * c.dilation_height;
              if (h < 0 || h >= H) continue;
              for (int64_t q = 0; q < Q; ++q) {
                const int64_t w = q * c.stride_width - c.pad_left + s * c.dilation_width;
                if (w < 0 || w >= W) continue;
                sum.add(grad_output[((n * c.out_channels + k) * P + p) * Q + q],
                        data[((n * c.in_channels + i) * H + h) * W + w]);
              }
            }
          emit(index++, sum);
        }
}

} // namespace convcheck
