/* convcheck plugin ABI, version 3 (docs/external.md, "The plugin ABI").
 *
 * A plugin is a shared library that convcheck loads with dlopen (`--plugin NAME=path/libmine.so`) in each process
 * that runs cases, and calls in that process like one of its own strategies: a plugin that segfaults, aborts or
 * hangs costs the verdict of the run it was in (a `crash` or `timeout` finding), not the campaign. It exports one
 * C function:
 *
 *     const convcheck_plugin *convcheck_plugin_entry(uint32_t abi_version);
 *
 * convcheck passes the ABI version it speaks (CONVCHECK_PLUGIN_ABI_VERSION); the plugin returns its description,
 * a convcheck_plugin whose abi_version is that version, or NULL if it does not speak it. The description must stay
 * valid while the library is loaded. Nothing but C types crosses the boundary.
 *
 * Versions. Each version only appends fields, to convcheck_plugin or at the end of convcheck_problem (which a plugin
 * of an older version never reads past). convcheck asks for version 3 first and, given NULL, for 2, then 1; a
 * version-1 plugin (built against the version-1 header) describes itself with the fields up to `run` alone, and is
 * read as an implementation of the `direct` class that takes any kernel size, stride and dilation. Version 2 adds
 * `algorithm` (the class its results are judged under: docs/bounds.md) and `kernels`, `strides`, `dilations` (the
 * shapes it takes, as a server's hello says them). Version 3 adds the problem's `output_padding`, a deconv's: a
 * plugin of version 1 or 2 is never offered a deconv, even if its `ops` names "deconv" (it cannot be told the output
 * padding); each is skipped with a reason naming the plugin's version.
 *
 * The problem and the tensors are named, not numbered, so that new formats (bfloat16, float16) and directions only
 * add names: ops "conv" and "deconv" (conv_transpose); formats "float32", "float64", "bfloat16", "float16";
 * directions "output", "grad_data", "grad_weight"; tensor roles "data", "weight", "grad_output" (read) and
 * "output", "grad_data", "grad_weight" (produced). A plugin must refuse, in its declaration or in `unsupported`, any
 * name it does not know.
 *
 * A deconv is held in its own terms (PyTorch's ConvTranspose, oneDNN's deconvolution): `in_size` is its input,
 * `in_channels`/`out_channels` its C_in/C_out, its weight is [C_in, C_out/G, kernel...] (IOHW per group), and its
 * directions have the same names and read the same roles in the same order as a conv's (convcheck_run below). It is
 * the data gradient of its equivalent conv (channels exchanged; its input size the deconv's out_size, its pad_end
 * the deconv's pad_end - output_padding; the same weight tensor): its output is that conv's grad_data, its
 * grad_data that conv's output, its grad_weight that conv's grad_weight with data and grad_output exchanged
 * (examples/plugin/direct_plugin.c computes it so).
 */
#ifndef CONVCHECK_PLUGIN_H
#define CONVCHECK_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CONVCHECK_PLUGIN_ABI_VERSION 3u
#define CONVCHECK_MAX_SPATIAL 3 /* spatial axes: depth, height, width */
#define CONVCHECK_MAX_RANK 5    /* tensor axes: 2 + spatial */

/* The convolution. Per-axis arrays hold `ndims` values, outermost axis first (D, H, W; a 2-D problem has H, W).
 * out_size[i] is given, by the op's formula:
 *   conv:   (in_size[i] + pad_begin[i] + pad_end[i] - dilation[i] * (kernel_size[i] - 1) - 1) / stride[i] + 1
 *   deconv: (in_size[i] - 1) * stride[i] - pad_begin[i] - pad_end[i] + dilation[i] * (kernel_size[i] - 1)
 *           + output_padding[i] + 1
 * Dilation 1 means none. A negative padding crops a conv's input at that end (in a deconv it adds output rows
 * that no tap reaches: zeros). */
typedef struct convcheck_problem {
  const char *op;       /* "conv" or "deconv" */
  int32_t ndims;        /* spatial dimensions: 1, 2 or 3 */
  int64_t batch;        /* N */
  int64_t groups;       /* G; divides both channel counts */
  int64_t in_channels;  /* C */
  int64_t out_channels; /* K */
  int64_t in_size[CONVCHECK_MAX_SPATIAL];
  int64_t out_size[CONVCHECK_MAX_SPATIAL];
  int64_t kernel_size[CONVCHECK_MAX_SPATIAL];
  int64_t stride[CONVCHECK_MAX_SPATIAL];
  int64_t dilation[CONVCHECK_MAX_SPATIAL];
  int64_t pad_begin[CONVCHECK_MAX_SPATIAL];
  int64_t pad_end[CONVCHECK_MAX_SPATIAL];
  const char *data_layout;   /* "NCHW", "NHWC", "NCW", "NDHWC", ...: how the data tensors below are laid out */
  const char *weight_layout; /* "OIHW", "HWIO", "OHWI", ...: how the weight tensors below are laid out */
  const char *src_dtype;     /* data and grad_data */
  const char *weight_dtype;  /* weight and grad_weight */
  const char *dst_dtype;     /* output and grad_output */
  const char *acc_dtype;     /* the accumulation */
  const char *descriptor;    /* one line, e.g. "g2mb2ic4ih5iw7oc6kh3kw2sh2_nhwc": for messages */

  /* Since version 3 (a plugin of version 1 or 2 is never offered a deconv, and never reads what follows). */
  /* A deconv's extra output rows at the end of each axis (PyTorch's output_padding), 0 <= it < max(stride,
   * dilation), already counted in out_size; always 0 in a conv. */
  int64_t output_padding[CONVCHECK_MAX_SPATIAL];
} convcheck_problem;

/* A tensor. `shape` is in canonical (logical) axis order whatever the layout: data-like tensors [N, C, spatial...],
 * a conv's weights [K, C/G, kernel...] (out_channels first) and a deconv's [C_in, C_out/G, kernel...] (in_channels
 * first; a weight layout names these two axes O and I either way); `strides` (in elements) say where each logical
 * axis is in memory, which is the problem's data_layout for data, output, grad_output and grad_data and its
 * weight_layout for weight and grad_weight. So a plugin may index through the strides, or, having declared only
 * some layouts, rely on them. */
typedef struct convcheck_tensor {
  const char *role;  /* "data", "weight", "grad_output", "output", "grad_data", "grad_weight" */
  const char *dtype; /* "float32" (C float), "float64" (C double) */
  int32_t rank;      /* 2 + ndims */
  int64_t shape[CONVCHECK_MAX_RANK];
  int64_t strides[CONVCHECK_MAX_RANK];
  void *data; /* inputs: read only; the result: uninitialised, every element must be written */
} convcheck_tensor;

/* One direction to compute. */
typedef struct convcheck_run {
  const char *direction;          /* "output", "grad_data" or "grad_weight" */
  const convcheck_tensor *inputs; /* the two tensors the direction reads, in this order, for conv and deconv alike:
                                     output reads data and weight; grad_data grad_output and weight; grad_weight
                                     grad_output and data (a deconv's data is [N, C_in, in_size...], its
                                     grad_output [N, C_out, out_size...]) */
  size_t input_count;
  convcheck_tensor *result; /* the direction's result, in its role's format and layout */
  char *message;            /* on failure, a one-line reason goes here (NUL-terminated, at most message_size) */
  size_t message_size;
} convcheck_run;

/* What `run` returns. */
#define CONVCHECK_OK 0    /* the result is written */
#define CONVCHECK_ERROR 1 /* no result: a failure with `message` as its reason */

typedef struct convcheck_plugin {
  uint32_t abi_version;    /* CONVCHECK_PLUGIN_ABI_VERSION */
  const char *name;        /* what implementation this is, e.g. "mylib 1.2 direct": recorded with a finding */
  const char *description; /* one line */
  /* What it supports, by name. A NULL list takes the default: every rank and layout for `ranks` and the layout
   * lists, conv only for `ops`, float32 and float64 for `dtypes` (an op or format convcheck gains later is sent
   * only to a plugin that names it). Lists of names end with NULL, `ranks` with 0. Layouts are families of any rank: data "ncx" (NCW, NCHW, NCDHW) and "nxc" (NWC, NHWC,
   * NDHWC); weights "oix" (OIHW...), "xio" (HWIO...) and "oxi" (OHWI...). Formats: problems whose four formats
   * are all one of `dtypes`. A problem outside this is skipped with the reason and never passed to `run`. */
  const char *const *ops;
  const int32_t *ranks;
  const char *const *dtypes;
  const char *const *data_layouts;
  const char *const *weight_layouts;
  int32_t crops; /* nonzero: negative padding is supported */
  /* Optional (may be NULL): why `direction` of a problem inside the declaration still cannot run; write a one-line
   * reason into `reason` and return nonzero to have it skipped, return 0 to have it run. */
  int (*unsupported)(const convcheck_problem *problem, const char *direction, char *reason, size_t reason_size);
  /* Computes one direction; returns CONVCHECK_OK or CONVCHECK_ERROR. Called from one thread at a time. */
  int (*run)(const convcheck_problem *problem, convcheck_run *run);

  /* Since version 2 (a version-1 plugin has none of what follows). */
  /* The algorithm class its results are judged under, as docs/bounds.md spells it: "direct" (or NULL),
   * "direct:storage" (partial sums kept in the result's format, such as float16 arithmetic), "fft",
   * "winograd" (F(2,3)), "winograd:4" (F(4,3) on Lavin and Gray's points), "winograd:4:0,5/8,-5/8,3/2,-3/2" (its own
   * finite points). A spelling convcheck does not read is an error naming the plugin. */
  const char *algorithm;
  /* The kernel sizes, strides and dilations it takes on every spatial axis of a problem's own; a NULL list takes any.
   * Each ends with 0. A problem outside them is skipped with the reason and never passed to `run`, and
   * `fuzz --focus NAME` draws only them (a Winograd F(m, 3) kernel: kernels {3, 0}, strides {1, 0}, dilations
   * {1, 0}). */
  const int64_t *kernels;
  const int64_t *strides;
  const int64_t *dilations;
} convcheck_plugin;

/* The one symbol a plugin exports. */
typedef const convcheck_plugin *(*convcheck_plugin_entry_fn)(uint32_t abi_version);
const convcheck_plugin *convcheck_plugin_entry(uint32_t abi_version);

#ifdef __cplusplus
}
#endif

#endif /* CONVCHECK_PLUGIN_H */
