/* A deliberately wrong convcheck plugin, to show a finding: a 2-D float32 forward convolution (any layout: it reads
 * through the strides; groups) that offsets each input row and column by the padding at the END of the axis instead
 * of the one at its beginning. Right whenever top and bottom (left and right) padding are equal, which is why such a
 * bug survives tests written with symmetric padding. The gradients are declined through `unsupported` (skipped with
 * the reason).
 *
 *     convcheck fuzz --plugin wrong=build/examples/libwrong_plugin.so    # exit 1: output findings, shrunk */
#include <stdio.h>
#include <string.h>

#include "convcheck/plugin.h"

static int unsupported(const convcheck_problem *p, const char *direction, char *reason, size_t size) {
  (void)p;
  if (strcmp(direction, "output") != 0) return snprintf(reason, size, "only the forward convolution"), 1;
  return 0;
}

static int run(const convcheck_problem *p, convcheck_run *run) {
  const convcheck_tensor *x = &run->inputs[0], *w = &run->inputs[1], *y = run->result; /* output reads data, weight */
  const int64_t *xs = x->strides, *ws = w->strides, *ys = y->strides;
  const int64_t C = p->in_channels / p->groups, K = p->out_channels / p->groups; /* per group */
  for (int64_t n = 0; n < p->batch; ++n)
    for (int64_t k = 0; k < p->out_channels; ++k)
      for (int64_t oh = 0; oh < p->out_size[0]; ++oh)
        for (int64_t ow = 0; ow < p->out_size[1]; ++ow) {
          float sum = 0;
          for (int64_t c = k / K * C; c < (k / K + 1) * C; ++c)
            for (int64_t r = 0; r < p->kernel_size[0]; ++r)
              for (int64_t s = 0; s < p->kernel_size[1]; ++s) {
                const int64_t ih = oh * p->stride[0] - p->pad_end[0] + r * p->dilation[0]; /* the bug: pad_begin */
                const int64_t iw = ow * p->stride[1] - p->pad_end[1] + s * p->dilation[1];
                if (ih >= 0 && ih < p->in_size[0] && iw >= 0 && iw < p->in_size[1])
                  sum += ((const float *)x->data)[n * xs[0] + c * xs[1] + ih * xs[2] + iw * xs[3]] *
                         ((const float *)w->data)[k * ws[0] + (c % C) * ws[1] + r * ws[2] + s * ws[3]];
              }
          ((float *)y->data)[n * ys[0] + k * ys[1] + oh * ys[2] + ow * ys[3]] = sum;
        }
  return CONVCHECK_OK;
}

static const char *const ops[] = {"conv", NULL}, *const dtypes[] = {"float32", NULL};
static const int32_t ranks[] = {2, 0};

static const convcheck_plugin plugin = {CONVCHECK_PLUGIN_ABI_VERSION, "wrong_plugin 1.0", "padding from the wrong end",
                                        ops, ranks, dtypes, NULL, NULL, 0, unsupported, run};

const convcheck_plugin *convcheck_plugin_entry(uint32_t abi_version) {
  return abi_version == CONVCHECK_PLUGIN_ABI_VERSION ? &plugin : NULL;
}
