// `im2col`: the convolution lowered to matrix products, as Caffe's and early cuDNN's GEMM paths do
// (Chellapilla, Puri and Simard, "High Performance Convolutional Neural Networks for Document Processing", 2006),
// with the products computed by a real BLAS (OpenBLAS through CBLAS) in the case dtype.
//
// Per batch item n and group g, unfold the group's input channels into the column matrix
//
//   col[((c*T + t)*R + r)*S + s, (od*P + p)*Q + q]
//       = data[n, g*C/G + c, od*sd - pd + t*dd, p*sh - pt + r*dh, q*sw - pl + s*dw]   (0 outside the input)
//
// of shape [C/G*T*R*S, OD*P*Q] (a problem of lower rank has unit outer axes: T = OD = 1 for 2-D, and R = P = 1 too
// for 1-D, so this is the 2-D matrix, byte for byte). With W_g the group's weights viewed as [K/G, C/G*T*R*S]
// (OIDHW is already that matrix) and out_g / grad_output_g the group's output volumes viewed as [K/G, OD*P*Q]:
//
//   forward:      out_g        = W_g x col
//   grad_weight:  grad_W_g     = sum_n grad_output_g x col^T     (beta = 1 accumulates the batch in the GEMM)
//   grad_data:    col          = W_g^T x grad_output_g, then col2im scatter-adds col back into the image,
//                                dropping the entries that fall outside the input.
//
// "Outside the input" is the padding, or what a negative padding crops away: either way the tap position lies
// outside [0, in) on some axis, and the entry is 0 (im2col) or dropped (col2im).
//
// Those entries of col are exact zeros, so the extra products they add to each dot product are exact and the
// rounding is that of a blocked GEMM over the real taps: within the reference's bound for any summation tree.

#include <cblas.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "core/numerics/blas_threads.hpp"
#include "core/problem/extents.hpp"
#include "core/problem/precision_table.hpp"
#include "core/tensor/index_span.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

namespace {

/// Sizes of one (batch item, group) slice of the problem, named once so the GEMM calls read like the formulas.
struct GroupGeometry {
  explicit GroupGeometry(const Problem &config)
      : config(config), in_channels(config.in_channels_per_group()), out_channels(config.out_channels_per_group()),
        col_rows(in_channels * config.kernel_volume()), col_cols(config.out_volume()),
        image_size(config.in_volume()) {}

  const Problem &config;
  int64_t in_channels;  // C/G
  int64_t out_channels; // K/G
  int64_t col_rows;     // C/G * T * R * S: the GEMM's reduction dimension for forward and grad_data
  int64_t col_cols;     // OD * P * Q
  int64_t image_size;   // D * H * W

  // Offsets of the group's slices in the canonical tensors.
  int64_t data_offset(int64_t n, int64_t g) const { return (n * config.in_channels + g * in_channels) * image_size; }
  int64_t output_offset(int64_t n, int64_t g) const {
    return (n * config.out_channels + g * out_channels) * col_cols;
  }
  int64_t weight_offset(int64_t g) const { return g * out_channels * col_rows; }
};

/// Row-major C[m, n] = op(A) x op(B) + beta * C, dispatched to sgemm or dgemm by element type.
template <class T>
void gemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, const T *a, int64_t lda, const T *b,
          int64_t ldb, T beta, T *c, int64_t ldc) {
  use_one_blas_thread();
  const auto op_a = transpose_a ? CblasTrans : CblasNoTrans, op_b = transpose_b ? CblasTrans : CblasNoTrans;
  const auto i = [](int64_t v) { return static_cast<blasint>(v); };
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, op_a, op_b, i(m), i(n), i(k), 1.0f, a, i(lda), b, i(ldb), beta, c, i(ldc));
  else
    cblas_dgemm(CblasRowMajor, op_a, op_b, i(m), i(n), i(k), 1.0, a, i(lda), b, i(ldb), beta, c, i(ldc));
}

/// For each kernel plane t (`planes`) the output planes od, for each kernel row r (`rows`) the output rows p, and for
/// each kernel column s (`columns`) the output columns q, whose tap lands inside the input (neither in the padding
/// nor cropped away): computed once per call, so the unfolding loops below test nothing per element.
struct TapSpans {
  explicit TapSpans(const Problem &c)
      : planes(per_tap(c.depth())), rows(per_tap(c.height())), columns(per_tap(c.width())) {}
  std::vector<IndexSpan> planes, rows, columns;

private:
  static std::vector<IndexSpan> per_tap(const SpatialAxis &a) {
    std::vector<IndexSpan> spans;
    for (int64_t t = 0; t < a.kernel; ++t)
      spans.push_back(in_range(t * a.dilation - a.pad_begin, a.stride, a.out(), a.in));
    return spans;
  }
};

// The 3-D unfolding is the 2-D one per (input channel, kernel plane t, output plane od): the depth loops go
// outermost, each in-range (t, od) reads one input plane z, and the loops below it are those of a 2-D problem
// (which runs them exactly once per channel). The entries of col for one (ci, t, od) are R*S rows of P*Q, each
// `ld` = OD*P*Q apart.

/// Unfolds input plane `plane` [H, W] into the col entries `block` of one (ci, t, od), zeros included.
template <class T>
void unfold_plane(const Problem &c, const Extents &e, const TapSpans &spans, const T *plane, T *block, int64_t ld) {
  const SpatialAxis &height = c.height(), &width = c.width();
  const int64_t P = e.P, Q = e.Q;
  for (int64_t r = 0; r < e.R; ++r)
    for (int64_t s = 0; s < e.S; ++s) {
      T *row = block + (r * e.S + s) * ld;
      const IndexSpan ps = spans.rows[static_cast<size_t>(r)], qs = spans.columns[static_cast<size_t>(s)];
      std::fill(row, row + ps.first * Q, T{0});
      for (int64_t p = ps.first; p < ps.last; ++p) {
        const int64_t h = p * height.stride - height.pad_begin + r * height.dilation;
        // Input column of output column q: q*sw + offset; an index, not a pointer, as it may be negative.
        const int64_t offset = h * e.W - width.pad_begin + s * width.dilation;
        T *out = row + p * Q;
        std::fill(out, out + qs.first, T{0});
        for (int64_t q = qs.first; q < qs.last; ++q) out[q] = plane[offset + q * width.stride];
        std::fill(out + qs.last, out + Q, T{0});
      }
      std::fill(row + ps.last * Q, row + P * Q, T{0});
    }
}

/// Fills col [C/G*T*R*S, OD*P*Q] from one group's image [C/G, D, H, W] by the unfolding formula above.
template <class T> void im2col(const GroupGeometry &geo, const TapSpans &spans, const T *image, T *col) {
  const Problem &c = geo.config;
  const Extents e(c);
  const int64_t plane_size = e.P * e.Q, ld = geo.col_cols;
  for (int64_t ci = 0; ci < geo.in_channels; ++ci)
    for (int64_t t = 0; t < e.T; ++t) {
      T *rows = col + (ci * e.T + t) * e.R * e.S * ld; // the R*S rows of tap (ci, t)
      const IndexSpan ods = spans.planes[static_cast<size_t>(t)];
      if (ods.first > 0 || ods.last < e.OD) // output planes whose tap t lies outside the input (never in 2-D)
        for (int64_t rs = 0; rs < e.R * e.S; ++rs) {
          std::fill(rows + rs * ld, rows + rs * ld + ods.first * plane_size, T{0});
          std::fill(rows + rs * ld + ods.last * plane_size, rows + (rs + 1) * ld, T{0});
        }
      for (int64_t od = ods.first; od < ods.last; ++od) {
        const int64_t z = od * c.depth().stride - c.depth().pad_begin + t * c.depth().dilation;
        unfold_plane(c, e, spans, image + (ci * e.D + z) * e.H * e.W, rows + od * plane_size, ld);
      }
    }
}

/// The adjoint of unfold_plane: adds the col entries `block` of one (ci, t, od) into the input plane they were read
/// from, dropping the entries from outside the input.
template <class T>
void fold_plane(const Problem &c, const Extents &e, const TapSpans &spans, const T *block, int64_t ld, T *plane) {
  const SpatialAxis &height = c.height(), &width = c.width();
  const int64_t Q = e.Q, stride = width.stride;
  for (int64_t r = 0; r < e.R; ++r)
    for (int64_t s = 0; s < e.S; ++s) {
      const T *row = block + (r * e.S + s) * ld;
      const IndexSpan ps = spans.rows[static_cast<size_t>(r)], qs = spans.columns[static_cast<size_t>(s)];
      for (int64_t p = ps.first; p < ps.last; ++p) {
        const int64_t h = p * height.stride - height.pad_begin + r * height.dilation;
        const int64_t offset = h * e.W - width.pad_begin + s * width.dilation;
        const T *entries = row + p * Q;
        for (int64_t q = qs.first; q < qs.last; ++q) plane[offset + q * stride] += entries[q];
      }
    }
}

/// The adjoint of im2col: adds every col entry into the image element it was read from (into grad_image
/// [C/G, D, H, W]), dropping the entries from outside the input.
template <class T> void col2im(const GroupGeometry &geo, const TapSpans &spans, const T *col, T *grad_image) {
  const Problem &c = geo.config;
  const Extents e(c);
  const int64_t ld = geo.col_cols;
  for (int64_t ci = 0; ci < geo.in_channels; ++ci)
    for (int64_t t = 0; t < e.T; ++t) {
      const IndexSpan ods = spans.planes[static_cast<size_t>(t)];
      for (int64_t od = ods.first; od < ods.last; ++od) {
        const int64_t z = od * c.depth().stride - c.depth().pad_begin + t * c.depth().dilation;
        fold_plane(c, e, spans, col + (ci * e.T + t) * e.R * e.S * ld + od * e.P * e.Q, ld,
                   grad_image + (ci * e.D + z) * e.H * e.W);
      }
    }
}

// out_g [K/G, OD*P*Q] = W_g [K/G, C/G*T*R*S] x col [C/G*T*R*S, OD*P*Q]
template <class T> void forward(const GroupGeometry &geo, const Case &cc, T *output) {
  std::vector<T> col(static_cast<size_t>(geo.col_rows * geo.col_cols));
  const TapSpans spans(geo.config);
  const T *data = cc[Role::data].data<T>(), *weight = cc[Role::weight].data<T>();
  for (int64_t n = 0; n < geo.config.batch; ++n)
    for (int64_t g = 0; g < geo.config.groups; ++g) {
      im2col(geo, spans, data + geo.data_offset(n, g), col.data());
      gemm<T>(false, false, geo.out_channels, geo.col_cols, geo.col_rows, weight + geo.weight_offset(g),
              geo.col_rows, col.data(), geo.col_cols, T{0}, output + geo.output_offset(n, g), geo.col_cols);
    }
}

// grad_W_g [K/G, C/G*T*R*S] = sum_n grad_output_g [K/G, OD*P*Q] x col^T [OD*P*Q, C/G*T*R*S]
template <class T> void grad_weight(const GroupGeometry &geo, const Case &cc, T *grad_weight) {
  std::vector<T> col(static_cast<size_t>(geo.col_rows * geo.col_cols));
  const TapSpans spans(geo.config);
  const T *data = cc[Role::data].data<T>(), *grad_output = cc[Role::grad_output].data<T>();
  for (int64_t g = 0; g < geo.config.groups; ++g)
    for (int64_t n = 0; n < geo.config.batch; ++n) {
      im2col(geo, spans, data + geo.data_offset(n, g), col.data());
      const T beta = n == 0 ? T{0} : T{1};
      gemm<T>(false, true, geo.out_channels, geo.col_rows, geo.col_cols, grad_output + geo.output_offset(n, g),
              geo.col_cols, col.data(), geo.col_cols, beta, grad_weight + geo.weight_offset(g), geo.col_rows);
    }
}

// col [C/G*T*R*S, OD*P*Q] = W_g^T [C/G*T*R*S, K/G] x grad_output_g [K/G, OD*P*Q], then col2im into grad_data.
template <class T> void grad_data(const GroupGeometry &geo, const Case &cc, T *grad_data) {
  std::vector<T> col(static_cast<size_t>(geo.col_rows * geo.col_cols));
  const TapSpans spans(geo.config);
  const T *weight = cc[Role::weight].data<T>(), *grad_output = cc[Role::grad_output].data<T>();
  for (int64_t n = 0; n < geo.config.batch; ++n)
    for (int64_t g = 0; g < geo.config.groups; ++g) {
      gemm<T>(true, false, geo.col_rows, geo.col_cols, geo.out_channels, weight + geo.weight_offset(g), geo.col_rows,
              grad_output + geo.output_offset(n, g), geo.col_cols, T{0}, col.data(), geo.col_cols);
      col2im(geo, spans, col.data(), grad_data + geo.data_offset(n, g)); // grad_data starts zero-filled
    }
}

template <class T> Tensor im2col_typed(const Case &cc, Direction direction) {
  const GroupGeometry geo(cc.problem);
  Tensor result(result_dtype(cc.problem, direction), result_shape(cc.problem, direction));
  T *out = result.data<T>();
  switch (direction) {
  case Direction::output: forward(geo, cc, out); break;
  case Direction::grad_data: grad_data(geo, cc, out); break;
  case Direction::grad_weight: grad_weight(geo, cc, out); break;
  }
  return result;
}

/// The column buffer is a workspace like any other: refuse one larger than the per-tensor cap (so its size also
/// fits CBLAS's 32-bit integers) instead of attempting a huge allocation.
std::string unsupported_workspace(const Problem &config, Direction) {
  const GroupGeometry geo(config);
  const double elements = static_cast<double>(geo.col_rows) * static_cast<double>(geo.col_cols);
  if (elements <= static_cast<double>(default_max_elements)) return "";
  return fmt::format("im2col column buffer of {}x{} elements exceeds the cap of {}", geo.col_rows, geo.col_cols,
                     default_max_elements);
}

const Registration registration{{
    .name = "im2col",
    .description = "im2col/col2im per batch item and group with OpenBLAS GEMMs in the accumulation format (bf16/f16 "
                   "inputs widened to float32); all directions, ranks 1-3 and crops, configs whose column buffer "
                   "fits the tensor cap",
    .supports = {.ops = {Op::conv, Op::deconv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .precisions = mixed_precisions(),
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .unsupported = any_op_unsupported(unsupported_workspace),
    // bfloat16 and float16 inputs go to sgemm widened, not to OpenBLAS's cblas_sbgemm: OpenBLAS has no float16
    // GEMM, so widening is the one path for both formats, and it computes exactly what the strategy means (stored
    // values, float32 accumulation, one rounding at the end). sbgemm would be another implementation under test.
    // A deconv's output is the GEMM then col2im of its equivalent conv's grad_data (core/problem/op.hpp).
    .run = any_op([](const Case &c, Direction direction) {
      return in_accumulation_format(c, direction, [](const Case &widened, Direction d) {
        return with_compute_type(widened.problem.precision.acc,
                                 [&](auto zero) { return im2col_typed<decltype(zero)>(widened, d); });
      });
    }),
}};

} // namespace

} // namespace convcheck
