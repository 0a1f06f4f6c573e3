// oneDNN 2.6 (Debian libdnnl 2.6.3): the jit backward-weights convolution (jit:avx2 here) of a 2-D conv whose height
// axis is padded at the top and cropped at the bottom (padding_r < 0, which oneDNN accepts when padding_r + stride
// > 0) runs one output row more than the conv has when the top-padded rows are all its output rows: it reads a row
// past src and a row past diff_dst, and adds their product into a kernel row past diff_weights
// (compute_oh_loop_common in src/cpu/x64/jit_avx2_conv_kernel_f32.cpp).
//   cc -O1 onednn_crop_wgrad.c -ldnnl -o onednn_crop_wgrad
//   OMP_NUM_THREADS=1 ./onednn_crop_wgrad  -> the cropped convs (nhwc and nChw8c data) on jit:avx2: grad_weight max
//     |error| 1000 (kernel row 0 got src row 1, -1, times the 1000 after diff_dst), and the float after diff_weights
//     is now 100000 (the 100 after src times the 1000 after diff_dst); exit 1. Not cropped, on gemm, or cropped in
//     width: error 0, nothing written past.
//   OMP_NUM_THREADS=1 valgrind --error-exitcode=3 ./onednn_crop_wgrad tight  -> no guards: memcheck reports invalid
//     reads just past src, diff_dst and diff_weights and an invalid write just past diff_weights (exit 3).
// Every buffer the primitive gets is ours and (but with `tight`) followed by guard floats: 100 after src, 1000 after
// diff_dst, 0 after diff_weights and the scratchpad, so a value read past src or diff_dst shows in the error and a
// write past diff_weights in its guard. Inputs are small integers: every float32 sum is exact, any error is a bug.
#include <dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(f) do { dnnl_status_t s = (f); if (s != dnnl_success) { printf("%s: %d\n", #f, (int)s); exit(2); } } while (0)

enum { GUARD = 1024 };  // guard floats after each buffer
static dnnl_engine_t engine;
static dnnl_stream_t stream;
static int guards = 1;

// A buffer for `md`, followed by GUARD floats of `guard` (none when !guards).
static float *buffer(const dnnl_memory_desc_t *md, dnnl_memory_t *memory, float guard) {
  size_t size = dnnl_memory_desc_get_size(md) / sizeof(float), floats = size + (guards ? GUARD : 0);
  float *data = malloc(floats * sizeof(float));
  for (size_t i = 0; i < floats; ++i) data[i] = i < size ? 0 : guard;
  CHECK(dnnl_memory_create(memory, md, engine, data));
  return data;
}

// Bytes of the guard after `data` that are no longer `guard`; *first is the first changed float.
static size_t bytes_changed_past(const float *data, const dnnl_memory_desc_t *md, float guard, float *first) {
  size_t changed = 0, start = dnnl_memory_desc_get_size(md) / sizeof(float);
  for (size_t i = start; guards && i < start + GUARD; ++i)
    if (data[i] != guard && changed++ == 0 && first) *first = data[i];
  return changed * sizeof(float);
}

static void reorder(dnnl_memory_t from, dnnl_memory_t to) {
  const dnnl_memory_desc_t *from_md, *to_md;
  CHECK(dnnl_memory_get_memory_desc(from, &from_md));
  CHECK(dnnl_memory_get_memory_desc(to, &to_md));
  dnnl_primitive_desc_t pd; dnnl_primitive_t primitive;
  CHECK(dnnl_reorder_primitive_desc_create(&pd, from_md, engine, to_md, engine, NULL));
  CHECK(dnnl_primitive_create(&primitive, pd));
  dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  CHECK(dnnl_primitive_execute(primitive, stream, 2, args));
  CHECK(dnnl_stream_wait(stream));
  dnnl_primitive_destroy(primitive); dnnl_primitive_desc_destroy(pd);
}

// The weight gradient of a 1-channel conv (batch 1, 1 input and 1 output channel), data in `data_tag`, weights in
// `wei_tag` (any: the implementation's choice); prints one line and returns whether it is wrong.
static int run(const char *what, dnnl_format_tag_t data_tag, dnnl_format_tag_t wei_tag, int H, int W, int KH, int KW,
               int SH, int SW, int PT, int PB, int PL, int PR) {
  const int OH = (H + PT + PB - KH) / SH + 1, OW = (W + PL + PR - KW) / SW + 1;
  dnnl_dims_t src_dims = {1, 1, H, W}, dst_dims = {1, 1, OH, OW}, wei_dims = {1, 1, KH, KW};
  dnnl_dims_t strides = {SH, SW}, padding_l = {PT, PL}, padding_r = {PB, PR};
  dnnl_memory_desc_t src, dst, wei, src_user, dst_user, wei_user;
  CHECK(dnnl_memory_desc_init_by_tag(&src, 4, src_dims, dnnl_f32, data_tag));
  CHECK(dnnl_memory_desc_init_by_tag(&dst, 4, dst_dims, dnnl_f32, data_tag));
  CHECK(dnnl_memory_desc_init_by_tag(&wei, 4, wei_dims, dnnl_f32, wei_tag));
  CHECK(dnnl_memory_desc_init_by_tag(&src_user, 4, src_dims, dnnl_f32, dnnl_nchw));
  CHECK(dnnl_memory_desc_init_by_tag(&dst_user, 4, dst_dims, dnnl_f32, dnnl_nchw));
  CHECK(dnnl_memory_desc_init_by_tag(&wei_user, 4, wei_dims, dnnl_f32, dnnl_oihw));
  dnnl_primitive_attr_t attr;
  CHECK(dnnl_primitive_attr_create(&attr));
  CHECK(dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user));
  dnnl_convolution_desc_t fwd_desc, bwd_desc;
  CHECK(dnnl_convolution_forward_desc_init(&fwd_desc, dnnl_forward_training, dnnl_convolution_direct, &src, &wei, NULL,
                                           &dst, strides, padding_l, padding_r));
  dnnl_primitive_desc_t fwd_pd, bwd_pd;  // the forward pd is the hint the backward one requires
  CHECK(dnnl_primitive_desc_create(&fwd_pd, &fwd_desc, attr, engine, NULL));
  CHECK(dnnl_convolution_backward_weights_desc_init(&bwd_desc, dnnl_convolution_direct, &src, &wei, NULL, &dst,
                                                    strides, padding_l, padding_r));
  CHECK(dnnl_primitive_desc_create(&bwd_pd, &bwd_desc, attr, engine, fwd_pd));
  const char *impl;
  CHECK(dnnl_primitive_desc_query(bwd_pd, dnnl_query_impl_info_str, 0, &impl));
  const dnnl_memory_desc_t *src_md = dnnl_primitive_desc_query_md(bwd_pd, dnnl_query_src_md, 0);
  const dnnl_memory_desc_t *dst_md = dnnl_primitive_desc_query_md(bwd_pd, dnnl_query_diff_dst_md, 0);
  const dnnl_memory_desc_t *wei_md = dnnl_primitive_desc_query_md(bwd_pd, dnnl_query_diff_weights_md, 0);
  const dnnl_memory_desc_t *scratch_md = dnnl_primitive_desc_query_md(bwd_pd, dnnl_query_scratchpad_md, 0);

  float x[H * W], dy[OH * OW], dw[KH * KW];  // plain nchw / oihw: small integers, so every sum is exact
  for (int i = 0; i < H * W; ++i) x[i] = (float)(i % 5 - 2);
  for (int i = 0; i < OH * OW; ++i) dy[i] = (float)(i % 3 + 1);
  dnnl_memory_t m_x, m_dy, m_dw, m_src, m_dst, m_wei, m_scratch;
  CHECK(dnnl_memory_create(&m_x, &src_user, engine, x));
  CHECK(dnnl_memory_create(&m_dy, &dst_user, engine, dy));
  CHECK(dnnl_memory_create(&m_dw, &wei_user, engine, dw));
  float *src_data = buffer(src_md, &m_src, 100), *dst_data = buffer(dst_md, &m_dst, 1000),
        *wei_data = buffer(wei_md, &m_wei, 0), *scratch_data = buffer(scratch_md, &m_scratch, 0);
  reorder(m_x, m_src);
  reorder(m_dy, m_dst);
  dnnl_primitive_t conv;
  CHECK(dnnl_primitive_create(&conv, bwd_pd));
  dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, m_src}, {DNNL_ARG_DIFF_DST, m_dst}, {DNNL_ARG_DIFF_WEIGHTS, m_wei},
                            {DNNL_ARG_SCRATCHPAD, m_scratch}};
  CHECK(dnnl_primitive_execute(conv, stream, 4, args));
  CHECK(dnnl_stream_wait(stream));
  float first_past_wei = 0;
  const size_t past = bytes_changed_past(src_data, src_md, 100, NULL) +
                      bytes_changed_past(dst_data, dst_md, 1000, NULL) +
                      bytes_changed_past(scratch_data, scratch_md, 0, NULL),
               past_wei = bytes_changed_past(wei_data, wei_md, 0, &first_past_wei);
  reorder(m_wei, m_dw);

  double max_error = 0;  // dw[kh][kw] = sum over oh, ow of x[oh*SH - PT + kh][ow*SW - PL + kw] * dy[oh][ow]
  for (int kh = 0; kh < KH; ++kh)
    for (int kw = 0; kw < KW; ++kw) {
      double sum = 0;
      for (int oh = 0; oh < OH; ++oh)
        for (int ow = 0; ow < OW; ++ow) {
          const int ih = oh * SH - PT + kh, iw = ow * SW - PL + kw;
          if (ih >= 0 && ih < H && iw >= 0 && iw < W) sum += (double)x[ih * W + iw] * dy[oh * OW + ow];
        }
      double error = dw[kh * KW + kw] - sum; if (error < 0) error = -error;
      if (error > max_error) max_error = error;
    }
  char first[64] = "";
  if (past_wei) snprintf(first, sizeof first, " (the first float now %g)", first_past_wei);
  printf("%s: ih%d iw%d kh%d kw%d sh%d sw%d padding_l {%d,%d} padding_r {%d,%d}, oh%d ow%d; %s, data %s, weights %s\n"
         "  grad_weight max |error| against float64: %g; bytes written past diff_weights: %zu%s, past src, "
         "diff_dst and scratchpad: %zu\n",
         what, H, W, KH, KW, SH, SW, PT, PL, PB, PR, OH, OW, impl, data_tag == dnnl_nhwc ? "nhwc" : "nChw8c",
         wei_tag == dnnl_format_tag_any ? "any" : "oihw", max_error, past_wei, first, past);
  dnnl_primitive_destroy(conv); dnnl_primitive_desc_destroy(bwd_pd); dnnl_primitive_desc_destroy(fwd_pd);
  dnnl_primitive_attr_destroy(attr);
  dnnl_memory_t all[] = {m_x, m_dy, m_dw, m_src, m_dst, m_wei, m_scratch};
  for (int i = 0; i < 7; ++i) dnnl_memory_destroy(all[i]);
  free(src_data); free(dst_data); free(wei_data); free(scratch_data);
  return max_error != 0 || past_wei != 0 || past != 0;
}

int main(int argc, char **argv) {
  guards = !(argc > 1 && strcmp(argv[1], "tight") == 0);
  CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  // Height 3, kernel 2, stride 2, top 1, bottom -1: one output row, the top-padded one (two without the crop).
  int wrong = run("height crop, jit", dnnl_nhwc, dnnl_format_tag_any, 3, 1, 2, 1, 2, 1, 1, -1, 0, 0);
  wrong |= run("height crop, jit, blocked", dnnl_nChw8c, dnnl_format_tag_any, 3, 1, 2, 1, 2, 1, 1, -1, 0, 0);
  wrong |= run("first crop found", dnnl_nhwc, dnnl_format_tag_any, 7, 8, 4, 5, 3, 1, 1, -2, 0, 1);
  // Controls: not cropped, on gemm (plain weights), and the crop moved to the width axis.
  int controls = run("no crop, jit", dnnl_nhwc, dnnl_format_tag_any, 3, 1, 2, 1, 2, 1, 1, 0, 0, 0);
  controls |= run("height crop, gemm", dnnl_nhwc, dnnl_oihw, 3, 1, 2, 1, 2, 1, 1, -1, 0, 0);
  controls |= run("width crop, jit", dnnl_nhwc, dnnl_format_tag_any, 1, 3, 1, 2, 1, 2, 0, 0, 1, -1);
  controls |= run("width crop, jit, blocked", dnnl_nChw8c, dnnl_format_tag_any, 1, 3, 1, 2, 1, 2, 0, 0, 1, -1);
  printf("the jit weight gradient of a height crop is %s\n", wrong ? "wrong" : "right");
  return wrong ? 1 : controls ? 4 : 0;
}
