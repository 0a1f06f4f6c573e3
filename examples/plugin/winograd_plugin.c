/* An example convcheck plugin of the `winograd` class (include/convcheck/plugin.h, ABI version 3; docs/external.md):
 * Winograd minimal filtering F(4,3) per spatial axis with Lavin and Gray's transforms ("Fast Algorithms for
 * Convolutional Neural Networks", CVPR 2016), float32, 1-D and 2-D, the output and the data gradient, groups,
 * padding and crops, any layout (it reads and writes through the strides). It declares what it is and what it takes:
 *
 *     .algorithm = "winograd:4"                       judged under the Winograd bound of F(4,3) (docs/bounds.md)
 *     .kernels = {3, 0}, .strides = {1, 0}, .dilations = {1, 0}   every axis of the problem's own
 *
 * so convcheck sends it only those shapes and `fuzz --focus NAME` draws only them.
 *
 *     convcheck fuzz --plugin wino=build/examples/libwinograd_plugin.so --focus wino
 *
 * WINOGRAD_PLUGIN_SHIFT=K (0 to 3) starts its tiles at output -K instead of 0 (first_tile).
 *
 * Built with -DCONVCHECK_EXAMPLE_ABI_V1 it describes itself as a version-1 plugin, whose description ends at `run`
 * (tests/cmd/plugin_test.cpp builds it so as libwinograd_v1_plugin.so): convcheck then reads it as `direct`, and its
 * correct F(4,3) results fail the direct bound; that is what `algorithm` (ABI version 2 on) is for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convcheck/plugin.h"

/* F(m, r) on one axis: y = A^T [(G g) . (B^T d)] on a tile of alpha = m + r - 1 inputs. An axis of kernel 1 (the
 * unit height of a 1-D problem) has m = alpha = 1 and no transform. */
typedef struct {
  int m, alpha;
  const float *bt, *g, *at; /* alpha x alpha, alpha x r, m x alpha, row-major */
} transform;

/* Lavin and Gray's F(4,3): points 0, 1, -1, 2, -2 and infinity. */
static const float bt43[36] = {4, 0, -5, 0, 1, 0, 0, -4, -4, 1, 1, 0, 0, 4, -4, -1, 1, 0,
                               0, -2, -1, 2, 1, 0, 0, 2, -1, -2, 1, 0, 0, 4, 0, -5, 0, 1};
static const float g43[18] = {1.f / 4,  0,         0,         -1.f / 6, -1.f / 6, -1.f / 6, -1.f / 6, 1.f / 6, -1.f / 6,
                              1.f / 24, 1.f / 12,  1.f / 6,   1.f / 24, -1.f / 12, 1.f / 6, 0,        0,       1};
static const float at43[24] = {1, 1, 1, 1, 1, 0, 0, 1, -1, 2, -2, 0, 0, 1, 1, 4, 4, 0, 0, 1, -1, 8, -8, 1};
static const float one = 1;

static transform transform_for(int64_t kernel) {
  const transform f43 = {4, 6, bt43, g43, at43}, identity = {1, 1, &one, &one, &one};
  return kernel == 3 ? f43 : identity;
}

/* A correlation out[n][g*OG + o][y][x] = sum_{c < IG, ty, tx} in[n][g*IG + c][y - pad_h + ty][x - pad_w + tx] *
 * weight[g*OG + o][c][ty][tx], dense row-major arrays, taps outside the input contributing nothing. */
typedef struct {
  int64_t batch, groups, in_per_group, out_per_group, in_h, in_w, kernel_h, kernel_w, pad_h, pad_w, out_h, out_w;
} correlation;

/* dst[i][j] = sum_k a[i][k] src[k][j] for a (rows x inner), src (inner x cols). */
static void left(const float *a, const float *src, float *dst, int rows, int inner, int cols) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      float sum = 0;
      for (int k = 0; k < inner; ++k) sum += a[i * inner + k] * src[k * cols + j];
      dst[i * cols + j] = sum;
    }
}

/* dst[i][j] = sum_k src[i][k] b[j][k] for src (rows x inner), b (cols x inner): a product with b transposed. */
static void right(const float *src, const float *b, float *dst, int rows, int inner, int cols) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      float sum = 0;
      for (int k = 0; k < inner; ++k) sum += src[i * inner + k] * b[j * inner + k];
      dst[i * cols + j] = sum;
    }
}

/* Where the tiles start: at output 0, or with WINOGRAD_PLUGIN_SHIFT=K set, at output -K on every transformed axis,
 * so that the first and last tiles are both partial. A correct implementation may place its tiles anywhere, and the
 * bound must hold wherever they are (docs/bounds.md; ctest winograd_plugin_tilings runs every residue). */
static int64_t first_tile(const transform *t) {
  const char *shift = getenv("WINOGRAD_PLUGIN_SHIFT");
  return t->m > 1 && shift != NULL ? -(atoll(shift) % t->m) : 0;
}

/* The correlation tile by tile: U = G_h g G_w^T per (o, c), V = B_h^T d B_w per (tile, c), Y = A_h^T (sum_c U . V)
 * A_w; a partial tile is computed whole and only its outputs in range are kept. */
static int correlate(const correlation *s, const float *in, const float *weight, float *out) {
  const transform th = transform_for(s->kernel_h), tw = transform_for(s->kernel_w);
  const int64_t first_y = first_tile(&th), first_x = first_tile(&tw);
  const int ah = th.alpha, aw = tw.alpha, plane = ah * aw;
  float *u = malloc(sizeof(float) * (size_t)(s->groups * s->out_per_group * s->in_per_group * plane));
  float *v = malloc(sizeof(float) * (size_t)(s->in_per_group * plane));
  if (u == NULL || v == NULL) return free(u), free(v), 0;
  float d[36], t[36], m[36], y[16];
  for (int64_t o = 0; o < s->groups * s->out_per_group; ++o)
    for (int64_t c = 0; c < s->in_per_group; ++c) {
      const float *g = weight + (o * s->in_per_group + c) * s->kernel_h * s->kernel_w;
      left(th.g, g, t, ah, (int)s->kernel_h, (int)s->kernel_w);
      right(t, tw.g, u + (o * s->in_per_group + c) * plane, ah, (int)s->kernel_w, aw);
    }
  for (int64_t n = 0; n < s->batch; ++n)
    for (int64_t group = 0; group < s->groups; ++group)
      for (int64_t y0 = first_y; y0 < s->out_h; y0 += th.m)
        for (int64_t x0 = first_x; x0 < s->out_w; x0 += tw.m) {
          for (int64_t c = 0; c < s->in_per_group; ++c) {
            const float *image = in + ((n * s->groups + group) * s->in_per_group + c) * s->in_h * s->in_w;
            for (int i = 0; i < ah; ++i)
              for (int j = 0; j < aw; ++j) {
                const int64_t row = y0 - s->pad_h + i, column = x0 - s->pad_w + j;
                const int inside = row >= 0 && row < s->in_h && column >= 0 && column < s->in_w;
                d[i * aw + j] = inside ? image[row * s->in_w + column] : 0;
              }
            left(th.bt, d, t, ah, ah, aw);
            right(t, tw.bt, v + c * plane, ah, aw, aw);
          }
          for (int64_t o = 0; o < s->out_per_group; ++o) {
            const int64_t channel = group * s->out_per_group + o;
            for (int e = 0; e < plane; ++e) m[e] = 0;
            for (int64_t c = 0; c < s->in_per_group; ++c)
              for (int e = 0; e < plane; ++e) m[e] += u[(channel * s->in_per_group + c) * plane + e] * v[c * plane + e];
            left(th.at, m, t, th.m, ah, aw);
            right(t, tw.at, y, th.m, aw, tw.m);
            float *image = out + (n * s->groups * s->out_per_group + channel) * s->out_h * s->out_w;
            for (int i = 0; i < th.m && y0 + i < s->out_h; ++i)
              for (int j = 0; j < tw.m && x0 + j < s->out_w; ++j)
                if (y0 + i >= 0 && x0 + j >= 0) image[(y0 + i) * s->out_w + x0 + j] = y[i * tw.m + j];
          }
        }
  free(u), free(v);
  return 1;
}

/* A tensor of rank 3 (1-D) or 4 (2-D) as [A][B][H][W], H of extent 1 in 1-D, with its memory strides. */
typedef struct {
  int64_t size[4], stride[4];
} view4;

static view4 view_of(const convcheck_tensor *t) {
  view4 v = {{t->shape[0], t->shape[1], 1, t->shape[t->rank - 1]}, {t->strides[0], t->strides[1], 0, t->strides[t->rank - 1]}};
  if (t->rank == 4) v.size[2] = t->shape[2], v.stride[2] = t->strides[2];
  return v;
}

#define FOR4(v) \
  for (int64_t i0 = 0; i0 < (v).size[0]; ++i0) for (int64_t i1 = 0; i1 < (v).size[1]; ++i1) \
      for (int64_t i2 = 0; i2 < (v).size[2]; ++i2) for (int64_t i3 = 0; i3 < (v).size[3]; ++i3)
#define OFFSET(v) (i0 * (v).stride[0] + i1 * (v).stride[1] + i2 * (v).stride[2] + i3 * (v).stride[3])
#define DENSE(v) (((i0 * (v).size[1] + i1) * (v).size[2] + i2) * (v).size[3] + i3)

/* Version 2 declares the shapes; a version-1 build has only this to keep the others away. */
static int unsupported(const convcheck_problem *p, const char *direction, char *reason, size_t size) {
  if (strcmp(direction, "grad_weight") == 0)
    return snprintf(reason, size, "Winograd here computes the output and the data gradient only"), 1;
  for (int i = 0; i < p->ndims; ++i)
    if (p->kernel_size[i] != 3 || p->stride[i] != 1 || p->dilation[i] != 1)
      return snprintf(reason, size, "F(4,3) takes kernel 3, stride 1, dilation 1"), 1;
  return 0;
}

static int run(const convcheck_problem *p, convcheck_run *run) {
  const int forward = strcmp(run->direction, "output") == 0;
  const view4 x = view_of(&run->inputs[0]), w = view_of(&run->inputs[1]), r = view_of(run->result);
  const int64_t in_per_group = p->in_channels / p->groups, out_per_group = p->out_channels / p->groups;
  const int64_t kh = w.size[2], kw = w.size[3];
  /* The data gradient correlates grad_output with the kernel flipped and transposed per group ([C][K/G][taps]),
   * padded by kernel - 1 - pad_begin: grad_data[i] = sum_t grad_output[i + pad - t] weight[t]. */
  correlation s = {x.size[0], p->groups, forward ? in_per_group : out_per_group, forward ? out_per_group : in_per_group,
                   x.size[2], x.size[3], kh, kw, 0, 0, r.size[2], r.size[3]};
  const int spatial = p->ndims;
  s.pad_h = spatial == 2 ? (forward ? p->pad_begin[0] : kh - 1 - p->pad_begin[0]) : 0;
  s.pad_w = forward ? p->pad_begin[spatial - 1] : kw - 1 - p->pad_begin[spatial - 1];
  float *in = malloc(sizeof(float) * (size_t)(x.size[0] * x.size[1] * x.size[2] * x.size[3]));
  float *weight = malloc(sizeof(float) * (size_t)(w.size[0] * w.size[1] * kh * kw));
  float *out = malloc(sizeof(float) * (size_t)(r.size[0] * r.size[1] * r.size[2] * r.size[3]));
  int ok = in != NULL && weight != NULL && out != NULL;
  if (ok) {
    FOR4(x) in[DENSE(x)] = ((const float *)run->inputs[0].data)[OFFSET(x)];
    FOR4(w) {
      const float tap = ((const float *)run->inputs[1].data)[OFFSET(w)];
      if (forward) weight[DENSE(w)] = tap;
      else { /* weight [K][C/G][kh][kw] to [C][K/G][kh][kw], flipped: k = group * K/G + o, c = group * C/G + i */
        const int64_t group = i0 / out_per_group, o = i0 % out_per_group, channel = group * in_per_group + i1;
        weight[((channel * out_per_group + o) * kh + (kh - 1 - i2)) * kw + (kw - 1 - i3)] = tap;
      }
    }
    ok = correlate(&s, in, weight, out);
  }
  if (ok) FOR4(r) ((float *)run->result->data)[OFFSET(r)] = out[DENSE(r)];
  else snprintf(run->message, run->message_size, "out of memory");
  free(in), free(weight), free(out);
  return ok ? CONVCHECK_OK : CONVCHECK_ERROR;
}

static const char *const ops[] = {"conv", NULL}, *const dtypes[] = {"float32", NULL};
static const int32_t ranks[] = {1, 2, 0};

#ifndef CONVCHECK_EXAMPLE_ABI_V1
static const int64_t kernels[] = {3, 0}, strides[] = {1, 0}, dilations[] = {1, 0};

static const convcheck_plugin plugin = {
    .abi_version = CONVCHECK_PLUGIN_ABI_VERSION,
    .name = "winograd_plugin 1.0 F(4,3)",
    .description = "Winograd F(4,3) per axis, Lavin and Gray's points, float32, 1-D and 2-D",
    .ops = ops,
    .ranks = ranks,
    .dtypes = dtypes,
    .crops = 1,
    .unsupported = unsupported,
    .run = run,
    .algorithm = "winograd:4",
    .kernels = kernels,
    .strides = strides,
    .dilations = dilations,
};

const convcheck_plugin *convcheck_plugin_entry(uint32_t abi_version) {
  return abi_version == CONVCHECK_PLUGIN_ABI_VERSION ? &plugin : NULL;
}
#else
/* The version-1 description: the same fields up to `run`, and nothing after it. */
typedef struct {
  uint32_t abi_version;
  const char *name, *description;
  const char *const *ops;
  const int32_t *ranks;
  const char *const *dtypes, *const *data_layouts, *const *weight_layouts;
  int32_t crops;
  int (*unsupported)(const convcheck_problem *, const char *, char *, size_t);
  int (*run)(const convcheck_problem *, convcheck_run *);
} convcheck_plugin_v1;

static const convcheck_plugin_v1 plugin = {1, "winograd_plugin 1.0 F(4,3), ABI version 1", "", ops, ranks, dtypes,
                                           NULL, NULL, 1, unsupported, run};

const convcheck_plugin *convcheck_plugin_entry(uint32_t abi_version) {
  return abi_version == 1 ? (const convcheck_plugin *)&plugin : NULL;
}
#endif
