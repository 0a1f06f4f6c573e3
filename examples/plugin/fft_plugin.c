/* An example convcheck plugin of the `fft` class (include/convcheck/plugin.h, ABI version 3; docs/external.md): the
 * forward convolution by a radix-2 FFT in single-precision complex arithmetic, 1-D and 2-D, float32, groups,
 * stride, dilation, padding and crops, any layout (it reads and writes through the strides). Each axis of the padded
 * input (length P) and the dilated kernel (length D) is zero-padded to a power of two L >= P + D - 1, so the
 * circular convolution of the transforms is the linear one; then per (image, output channel)
 *
 *     z = IFFT( sum_c FFT(x_c) . FFT(flip(w_c)) ) / L,     output[o] = z[o * stride + D - 1]   (per axis)
 *
 * It declares `.algorithm = "fft"`, so its results are judged under the normwise FFT bound per output signal
 * (docs/bounds.md). The gradients are declined through `unsupported` (skipped with the reason).
 *
 *     convcheck fuzz --plugin fft=build/examples/libfft_plugin.so */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convcheck/plugin.h"

/* The axes of a problem as two, height first: a 1-D problem has a unit height. */
typedef struct {
  int64_t in, out, kernel, stride, dilation, pad;
  int64_t padded, span, length; /* P, D and L above */
} axis;

static void axes_of(const convcheck_problem *p, axis a[2]) {
  for (int j = 0; j < 2; ++j) {
    const int i = j - (2 - p->ndims);
    axis x = {1, 1, 1, 1, 1, 0, 0, 0, 1};
    if (i >= 0)
      x = (axis){p->in_size[i], p->out_size[i], p->kernel_size[i], p->stride[i], p->dilation[i], p->pad_begin[i], 0, 0, 1};
    x.padded = i >= 0 ? p->in_size[i] + p->pad_begin[i] + p->pad_end[i] : 1;
    x.span = x.dilation * (x.kernel - 1) + 1;
    while (x.length < x.padded + x.span - 1) x.length *= 2;
    a[j] = x;
  }
}

/* In-place radix-2 FFT of n values spaced `step` apart; `sign` -1 forward, +1 inverse (unscaled). Twiddles are
 * computed in double and rounded once. */
static void fft(float complex *v, int64_t n, int64_t step, int sign) {
  for (int64_t i = 1, j = 0; i < n; ++i) { /* bit reversal */
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const float complex t = v[i * step];
      v[i * step] = v[j * step], v[j * step] = t;
    }
  }
  for (int64_t len = 2; len <= n; len *= 2)
    for (int64_t k = 0; k < len / 2; ++k) {
      const double angle = sign * 2 * M_PI * (double)k / (double)len;
      const float complex w = (float)cos(angle) + (float)sin(angle) * I;
      for (int64_t start = 0; start < n; start += len) {
        float complex *a = v + (start + k) * step, *b = v + (start + k + len / 2) * step;
        const float complex t = w * *b;
        *b = *a - t, *a = *a + t;
      }
    }
}

/* The 2-D transform of an L_h x L_w plane, rows then columns. */
static void fft2(float complex *plane, const axis a[2], int sign) {
  for (int64_t r = 0; r < a[0].length; ++r) fft(plane + r * a[1].length, a[1].length, 1, sign);
  for (int64_t c = 0; c < a[1].length; ++c) fft(plane + c, a[0].length, a[1].length, sign);
}

static const int64_t most_values = (int64_t)1 << 24; /* complex values of the spectra kept at once */

static int unsupported(const convcheck_problem *p, const char *direction, char *reason, size_t size) {
  if (strcmp(direction, "output") != 0) return snprintf(reason, size, "the forward convolution only"), 1;
  axis a[2];
  axes_of(p, a);
  const int64_t plane = a[0].length * a[1].length;
  if (plane * (p->batch * p->in_channels + p->out_channels * (p->in_channels / p->groups) + 1) > most_values)
    return snprintf(reason, size, "over %lld complex values of spectra", (long long)most_values), 1;
  return 0;
}

/* Offset of element (i0, i1, h, w) of a rank-3 (1-D) or rank-4 (2-D) tensor. */
static int64_t at(const convcheck_tensor *t, int64_t i0, int64_t i1, int64_t h, int64_t w) {
  return i0 * t->strides[0] + i1 * t->strides[1] + (t->rank == 4 ? h * t->strides[2] : 0) + w * t->strides[t->rank - 1];
}

static int run(const convcheck_problem *p, convcheck_run *run) {
  const convcheck_tensor *x = &run->inputs[0], *w = &run->inputs[1], *y = run->result; /* output reads data, weight */
  axis a[2];
  axes_of(p, a);
  const int64_t plane = a[0].length * a[1].length, cg = p->in_channels / p->groups, kg = p->out_channels / p->groups;
  float complex *xs = calloc((size_t)(plane * p->batch * p->in_channels), sizeof *xs);
  float complex *ws = calloc((size_t)(plane * p->out_channels * cg), sizeof *ws);
  float complex *sum = malloc((size_t)plane * sizeof *sum);
  if (xs == NULL || ws == NULL || sum == NULL) {
    free(xs), free(ws), free(sum);
    return snprintf(run->message, run->message_size, "out of memory"), CONVCHECK_ERROR;
  }
  /* Padded inputs: padded position q holds input q - pad (zero outside the input). */
  for (int64_t n = 0; n < p->batch; ++n)
    for (int64_t c = 0; c < p->in_channels; ++c) {
      float complex *s = xs + (n * p->in_channels + c) * plane;
      for (int64_t qh = 0; qh < a[0].padded; ++qh)
        for (int64_t qw = 0; qw < a[1].padded; ++qw) {
          const int64_t ih = qh - a[0].pad, iw = qw - a[1].pad;
          if (ih >= 0 && ih < a[0].in && iw >= 0 && iw < a[1].in)
            s[qh * a[1].length + qw] = ((const float *)x->data)[at(x, n, c, ih, iw)];
        }
      fft2(s, a, -1);
    }
  /* Dilated kernels, flipped: tap t sits at span - 1 - t * dilation. */
  for (int64_t k = 0; k < p->out_channels; ++k)
    for (int64_t c = 0; c < cg; ++c) {
      float complex *s = ws + (k * cg + c) * plane;
      for (int64_t th = 0; th < a[0].kernel; ++th)
        for (int64_t tw = 0; tw < a[1].kernel; ++tw)
          s[(a[0].span - 1 - th * a[0].dilation) * a[1].length + (a[1].span - 1 - tw * a[1].dilation)] =
              ((const float *)w->data)[at(w, k, c, th, tw)];
      fft2(s, a, -1);
    }
  for (int64_t n = 0; n < p->batch; ++n)
    for (int64_t k = 0; k < p->out_channels; ++k) {
      const int64_t group = k / kg;
      memset(sum, 0, (size_t)plane * sizeof *sum);
      for (int64_t c = 0; c < cg; ++c) {
        const float complex *xc = xs + (n * p->in_channels + group * cg + c) * plane, *wc = ws + (k * cg + c) * plane;
        for (int64_t e = 0; e < plane; ++e) sum[e] += xc[e] * wc[e];
      }
      fft2(sum, a, +1);
      for (int64_t oh = 0; oh < a[0].out; ++oh)
        for (int64_t ow = 0; ow < a[1].out; ++ow) {
          const int64_t zh = oh * a[0].stride + a[0].span - 1, zw = ow * a[1].stride + a[1].span - 1;
          ((float *)y->data)[at(y, n, k, oh, ow)] = crealf(sum[zh * a[1].length + zw]) / (float)plane;
        }
    }
  free(xs), free(ws), free(sum);
  return CONVCHECK_OK;
}

static const char *const ops[] = {"conv", NULL}, *const dtypes[] = {"float32", NULL};
static const int32_t ranks[] = {1, 2, 0};

static const convcheck_plugin plugin = {
    .abi_version = CONVCHECK_PLUGIN_ABI_VERSION,
    .name = "fft_plugin 1.0",
    .description = "forward convolution by a radix-2 FFT in single-precision complex, 1-D and 2-D",
    .ops = ops,
    .ranks = ranks,
    .dtypes = dtypes,
    .crops = 1,
    .unsupported = unsupported,
    .run = run,
    .algorithm = "fft",
};

const convcheck_plugin *convcheck_plugin_entry(uint32_t abi_version) {
  return abi_version == CONVCHECK_PLUGIN_ABI_VERSION ? &plugin : NULL;
}
