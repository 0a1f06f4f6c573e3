/* An example convcheck plugin (include/convcheck/plugin.h, ABI version 3; docs/external.md, "The plugin ABI"):
 * direct loops for all three directions of convs and deconvs (conv_transpose), 1-D to 3-D, groups, stride,
 * dilation, padding and crops, float32 and float64 and any mix of them, any layout (it reads and writes through the
 * strides it is given). Sums are accumulated in the problem's format; a mixed problem is computed in float64 on
 * float64 copies, then rounded to the result's format. A deconv runs the conv loops on its equivalent conv with the
 * roles exchanged.
 *
 *     cc -O2 -shared -fPIC -I include examples/plugin/direct_plugin.c -o libdirect_plugin.so
 *     convcheck fuzz --plugin direct=./libdirect_plugin.so
 *
 * CMake builds it as build/examples/libdirect_plugin.so; the tests and bench/plugin_cost.cpp use it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convcheck/plugin.h"

/* A tensor seen as 5-D [N, C, D, H, W] (or [K, C/G, KD, KH, KW]): a problem of lower rank has unit outer axes. */
typedef struct {
  int64_t size[5], stride[5];
  void *data;
} view5;

/* The problem's per-axis values, as three axes (unit outer axes for lower ranks). */
typedef struct {
  int64_t in[3], out[3], kernel[3], stride[3], dilation[3], pad[3];
} axes3;

static view5 view_of(const convcheck_tensor *t) {
  view5 v = {{1, 1, 1, 1, 1}, {0, 0, 0, 0, 0}, t->data};
  const int spatial = t->rank - 2;
  for (int axis = 0; axis < 2; ++axis) v.size[axis] = t->shape[axis], v.stride[axis] = t->strides[axis];
  for (int j = 0; j < spatial; ++j) v.size[5 - spatial + j] = t->shape[2 + j], v.stride[5 - spatial + j] = t->strides[2 + j];
  return v;
}

static axes3 axes_of(const convcheck_problem *p) {
  axes3 a;
  for (int j = 0; j < 3; ++j) {
    const int i = j - (3 - p->ndims); /* index into the problem's ndims values, or < 0 for a unit axis */
    a.in[j] = i < 0 ? 1 : p->in_size[i];
    a.out[j] = i < 0 ? 1 : p->out_size[i];
    a.kernel[j] = i < 0 ? 1 : p->kernel_size[i];
    a.stride[j] = i < 0 ? 1 : p->stride[i];
    a.dilation[j] = i < 0 ? 1 : p->dilation[i];
    a.pad[j] = i < 0 ? 0 : p->pad_begin[i];
  }
  return a;
}

static int64_t at(const view5 *v, int64_t a, int64_t b, const int64_t x[3]) {
  return a * v->stride[0] + b * v->stride[1] + x[0] * v->stride[2] + x[1] * v->stride[3] + x[2] * v->stride[4];
}

/* The input position i that output position o reads through kernel tap r; 0 when it is padding on some axis. */
static inline int input_at(const axes3 *a, const int64_t o[3], const int64_t r[3], int64_t i[3]) {
  const int64_t d = o[0] * a->stride[0] - a->pad[0] + r[0] * a->dilation[0];
  const int64_t h = o[1] * a->stride[1] - a->pad[1] + r[1] * a->dilation[1];
  const int64_t w = o[2] * a->stride[2] - a->pad[2] + r[2] * a->dilation[2];
  i[0] = d, i[1] = h, i[2] = w;
  return d >= 0 && d < a->in[0] && h >= 0 && h < a->in[1] && w >= 0 && w < a->in[2];
}

#define FOR3(x, extent) \
  for (x[0] = 0; x[0] < (extent)[0]; ++x[0]) for (x[1] = 0; x[1] < (extent)[1]; ++x[1]) for (x[2] = 0; x[2] < (extent)[2]; ++x[2])

/* The three directions for element type T:
 *   output[n, k, o]      = sum over c of the group, r:  data[n, c, o*s - pad + r*dil] * weight[k, c, r]
 *   grad_data[n, c, i]   = sum over k of the group, r, o with o*s - pad + r*dil = i:  grad_output[n, k, o] * weight[k, c, r]
 *   grad_weight[k, c, r] = sum over n, o:  grad_output[n, k, o] * data[n, c, o*s - pad + r*dil] */
#define DEFINE_DIRECTIONS(T, SUFFIX)                                                                                  \
  static void output_##SUFFIX(const convcheck_problem *p, const view5 *x, const view5 *w, view5 *y) {               \
    const axes3 a = axes_of(p);                                                                                       \
    const int64_t cg = p->in_channels / p->groups, kg = p->out_channels / p->groups;                                  \
    int64_t o[3], r[3], i[3];                                                                                         \
    for (int64_t n = 0; n < p->batch; ++n)                                                                            \
      for (int64_t k = 0; k < p->out_channels; ++k) FOR3(o, a.out) {                                                 \
          T sum = 0;                                                                                                  \
          for (int64_t c = 0; c < cg; ++c) FOR3(r, a.kernel) {                                                       \
              if (input_at(&a, o, r, i))                                                                             \
                sum += ((const T *)x->data)[at(x, n, k / kg * cg + c, i)] * ((const T *)w->data)[at(w, k, c, r)];     \
            }                                                                                                         \
          ((T *)y->data)[at(y, n, k, o)] = sum;                                                                       \
        }                                                                                                             \
  }                                                                                                                   \
  static void grad_data_##SUFFIX(const convcheck_problem *p, const view5 *dy, const view5 *w, view5 *dx) {          \
    const axes3 a = axes_of(p);                                                                                       \
    const int64_t cg = p->in_channels / p->groups, kg = p->out_channels / p->groups;                                  \
    int64_t i[3], r[3], o[3];                                                                                         \
    for (int64_t n = 0; n < p->batch; ++n)                                                                            \
      for (int64_t c = 0; c < p->in_channels; ++c) FOR3(i, a.in) {                                                   \
          T sum = 0;                                                                                                  \
          const int64_t g = c / cg;                                                                                   \
          for (int64_t k = g * kg; k < (g + 1) * kg; ++k) FOR3(r, a.kernel) {                                        \
              int fits = 1;                                                                                           \
              for (int j = 0; j < 3; ++j) {                                                                           \
                const int64_t t = i[j] + a.pad[j] - r[j] * a.dilation[j];                                             \
                o[j] = t / a.stride[j];                                                                               \
                fits = fits && t >= 0 && t % a.stride[j] == 0 && o[j] < a.out[j];                                     \
              }                                                                                                       \
              if (fits) sum += ((const T *)dy->data)[at(dy, n, k, o)] * ((const T *)w->data)[at(w, k, c - g * cg, r)]; \
            }                                                                                                         \
          ((T *)dx->data)[at(dx, n, c, i)] = sum;                                                                     \
        }                                                                                                             \
  }                                                                                                                   \
  static void grad_weight_##SUFFIX(const convcheck_problem *p, const view5 *dy, const view5 *x, view5 *dw) {         \
    const axes3 a = axes_of(p);                                                                                       \
    const int64_t cg = p->in_channels / p->groups, kg = p->out_channels / p->groups;                                  \
    int64_t r[3], o[3], i[3];                                                                                         \
    for (int64_t k = 0; k < p->out_channels; ++k)                                                                     \
      for (int64_t c = 0; c < cg; ++c) FOR3(r, a.kernel) {                                                           \
          T sum = 0;                                                                                                  \
          for (int64_t n = 0; n < p->batch; ++n) FOR3(o, a.out) {                                                    \
              if (input_at(&a, o, r, i))                                                                             \
                sum += ((const T *)dy->data)[at(dy, n, k, o)] * ((const T *)x->data)[at(x, n, k / kg * cg + c, i)];   \
            }                                                                                                         \
          ((T *)dw->data)[at(dw, k, c, r)] = sum;                                                                     \
        }                                                                                                             \
  }

DEFINE_DIRECTIONS(float, f32)
DEFINE_DIRECTIONS(double, f64)

enum { OUTPUT, GRAD_DATA, GRAD_WEIGHT };
typedef void (*conv_loop)(const convcheck_problem *, const view5 *, const view5 *, view5 *);
/* By format (float64, float32), then by conv direction; each takes its two inputs in the ABI's order. */
static const conv_loop conv_loops[2][3] = {{output_f64, grad_data_f64, grad_weight_f64},
                                           {output_f32, grad_data_f32, grad_weight_f32}};

/* A deconv is the data gradient of its equivalent conv: the conv with the channels exchanged whose input is the
 * deconv's output, so in and out sizes exchange too. out_size already counts output_padding, so the conv's input
 * size does; its end padding (pad_end - output_padding, a crop) is kept for the record, the loops bounding every
 * index by the sizes instead. */
static convcheck_problem equivalent_conv(const convcheck_problem *deconv) {
  convcheck_problem conv = *deconv;
  conv.op = "conv";
  conv.in_channels = deconv->out_channels, conv.out_channels = deconv->in_channels;
  for (int i = 0; i < deconv->ndims; ++i) {
    conv.in_size[i] = deconv->out_size[i], conv.out_size[i] = deconv->in_size[i];
    conv.pad_end[i] = deconv->pad_end[i] - deconv->output_padding[i], conv.output_padding[i] = 0;
  }
  return conv;
}

/* Each deconv direction is a conv direction with the roles exchanged (core/problem/op.hpp):
 *   deconv output      = conv grad_data   (data is the conv's grad_output, output the conv's grad_data)
 *   deconv grad_data   = conv output      (grad_output is the conv's data, grad_data the conv's output)
 *   deconv grad_weight = conv grad_weight (data and grad_output exchanged)
 * The weight is the same tensor: the conv's [K, C/G, kernel...] is the deconv's [C_in, C_out/G, kernel...]. */
static const int deconv_as_conv[3] = {GRAD_DATA, OUTPUT, GRAD_WEIGHT};

static const convcheck_tensor *input(const convcheck_run *run, const char *role) {
  for (size_t i = 0; i < run->input_count; ++i)
    if (strcmp(run->inputs[i].role, role) == 0) return &run->inputs[i];
  return NULL;
}

/* Elements a dense tensor's buffer spans through its strides. */
static int64_t span(const convcheck_tensor *t) {
  int64_t last = 0;
  for (int32_t axis = 0; axis < t->rank; ++axis) last += (t->shape[axis] - 1) * t->strides[axis];
  return last + 1;
}

/* Copies `count` elements between float32 and float64 buffers, as their formats say. */
static void convert(const void *from, const char *from_dtype, void *to, const char *to_dtype, int64_t count) {
  const int from32 = strcmp(from_dtype, "float32") == 0, to32 = strcmp(to_dtype, "float32") == 0;
  for (int64_t i = 0; i < count; ++i) {
    const double value = from32 ? ((const float *)from)[i] : ((const double *)from)[i];
    if (to32) ((float *)to)[i] = (float)value;
    else ((double *)to)[i] = value;
  }
}

static int compute(const convcheck_problem *problem, convcheck_run *run);

/* A problem whose tensors mix formats: its inputs and result as float64 copies, computed, then rounded back. */
static int run_mixed(const convcheck_problem *problem, convcheck_run *run) {
  convcheck_tensor inputs[2] = {run->inputs[0], run->inputs[1]}, result = *run->result;
  void *copies[3] = {malloc(sizeof(double) * span(&inputs[0])), malloc(sizeof(double) * span(&inputs[1])),
                     malloc(sizeof(double) * span(&result))};
  int status = CONVCHECK_ERROR;
  if (copies[0] && copies[1] && copies[2]) {
    for (int i = 0; i < 2; ++i) {
      convert(inputs[i].data, inputs[i].dtype, copies[i], "float64", span(&inputs[i]));
      inputs[i].data = copies[i], inputs[i].dtype = "float64";
    }
    result.data = copies[2], result.dtype = "float64";
    convcheck_run in_double = *run;
    in_double.inputs = inputs, in_double.result = &result;
    status = compute(problem, &in_double);
    if (status == CONVCHECK_OK) convert(copies[2], "float64", run->result->data, run->result->dtype, span(&result));
  } else {
    snprintf(run->message, run->message_size, "out of memory for float64 copies");
  }
  for (int i = 0; i < 3; ++i) free(copies[i]);
  return status;
}

static int run(const convcheck_problem *problem, convcheck_run *run) {
  const char *formats[] = {problem->src_dtype, problem->weight_dtype, problem->dst_dtype, problem->acc_dtype};
  for (int i = 1; i < 4; ++i)
    if (strcmp(formats[i], formats[0]) != 0) return run_mixed(problem, run);
  return compute(problem, run);
}

static int compute(const convcheck_problem *problem, convcheck_run *run) {
  const int f32 = strcmp(run->result->dtype, "float32") == 0;
  view5 result = view_of(run->result);
  const int direction = strcmp(run->direction, "output") == 0      ? OUTPUT
                        : strcmp(run->direction, "grad_data") == 0 ? GRAD_DATA
                                                                   : GRAD_WEIGHT;
  const char *first = direction == OUTPUT ? "data" : "grad_output";
  const char *second = direction == GRAD_WEIGHT ? "data" : "weight";
  const convcheck_tensor *a = input(run, first), *b = input(run, second);
  if (a == NULL || b == NULL) {
    snprintf(run->message, run->message_size, "%s needs %s and %s", run->direction, first, second);
    return CONVCHECK_ERROR;
  }
  const view5 va = view_of(a), vb = view_of(b);
  if (strcmp(problem->op, "deconv") != 0) {
    conv_loops[f32][direction](problem, &va, &vb, &result);
  } else {
    const convcheck_problem conv = equivalent_conv(problem);
    const int swap = direction == GRAD_WEIGHT; /* the conv's grad_output is the deconv's data */
    conv_loops[f32][deconv_as_conv[direction]](&conv, swap ? &vb : &va, swap ? &va : &vb, &result);
  }
  return CONVCHECK_OK;
}

static const char *const ops[] = {"conv", "deconv", NULL};
static const int32_t ranks[] = {1, 2, 3, 0};
static const char *const dtypes[] = {"float32", "float64", NULL};

static const convcheck_plugin plugin = {
    .abi_version = CONVCHECK_PLUGIN_ABI_VERSION,
    .name = "direct_plugin 1.0",
    .description = "direct loops through strides, every layout",
    .ops = ops,
    .ranks = ranks,
    .dtypes = dtypes,
    .data_layouts = NULL, /* every layout: it reads through the strides */
    .weight_layouts = NULL,
    .crops = 1,
    .unsupported = NULL,
    .run = run,
};

const convcheck_plugin *convcheck_plugin_entry(uint32_t abi_version) {
  return abi_version == CONVCHECK_PLUGIN_ABI_VERSION ? &plugin : NULL;
}
