// oneDNN 2.6 (Debian libdnnl 2.6.3): the jit_1x1 backward-weights convolution of a strided 1x1 conv on channels-last
// (acdb) src/diff_dst with fewer input channels than its channel block (8 on AVX2) writes past the scratchpad it asks
// for (oneDNN issue #6035). Reached from PyTorch 1.13 (ATen's mkldnn backend, channels_last tensors).
//   cc -O1 onednn_1x1_wgrad.c -ldnnl -o onednn_1x1_wgrad
//   OMP_NUM_THREADS=1 ./onednn_1x1_wgrad   -> 256 bytes written past the scratchpad, grad_weight right, exit 1
//   OMP_NUM_THREADS=2 ./onednn_1x1_wgrad   -> grad_weight max |error| 18 against float64 on exact inputs, exit 1
// The scratchpad is ours (user scratchpad mode), followed by guard bytes, so the overflow is counted, not suffered.
#include <dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(f) do { dnnl_status_t s = (f); if (s != dnnl_success) { printf("%s: %d\n", #f, (int)s); exit(2); } } while (0)

int main(void) {
  enum { N = 2, C = 4, H = 12, W = 6, K = 5, SH = 1, SW = 2, OH = (H - 1) / SH + 1, OW = (W - 1) / SW + 1, GUARD = 4096 };
  dnnl_engine_t engine; dnnl_stream_t stream;
  CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  dnnl_memory_desc_t src, dst, wei_any, wei_plain;
  dnnl_dims_t src_dims = {N, C, H, W}, dst_dims = {N, K, OH, OW}, wei_dims = {K, C, 1, 1};
  CHECK(dnnl_memory_desc_init_by_tag(&src, 4, src_dims, dnnl_f32, dnnl_acdb));  // NHWC
  CHECK(dnnl_memory_desc_init_by_tag(&dst, 4, dst_dims, dnnl_f32, dnnl_acdb));
  CHECK(dnnl_memory_desc_init_by_tag(&wei_any, 4, wei_dims, dnnl_f32, dnnl_format_tag_any));
  CHECK(dnnl_memory_desc_init_by_tag(&wei_plain, 4, wei_dims, dnnl_f32, dnnl_oihw));
  dnnl_dims_t strides = {SH, SW}, pad = {0, 0};
  dnnl_primitive_attr_t attr;
  CHECK(dnnl_primitive_attr_create(&attr));
  CHECK(dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user));
  dnnl_convolution_desc_t fwd_desc, bwd_desc;
  CHECK(dnnl_convolution_forward_desc_init(&fwd_desc, dnnl_forward_training, dnnl_convolution_direct, &src, &wei_any,
                                           NULL, &dst, strides, pad, pad));
  dnnl_primitive_desc_t fwd_pd, bwd_pd;
  CHECK(dnnl_primitive_desc_create(&fwd_pd, &fwd_desc, attr, engine, NULL));
  CHECK(dnnl_convolution_backward_weights_desc_init(&bwd_desc, dnnl_convolution_direct, &src, &wei_any, NULL, &dst,
                                                    strides, pad, pad));
  CHECK(dnnl_primitive_desc_create(&bwd_pd, &bwd_desc, attr, engine, fwd_pd));
  const char *impl;
  CHECK(dnnl_primitive_desc_query(bwd_pd, dnnl_query_impl_info_str, 0, &impl));
  const dnnl_memory_desc_t *wei = dnnl_primitive_desc_query_md(bwd_pd, dnnl_query_diff_weights_md, 0);
  const dnnl_memory_desc_t *scratch_md = dnnl_primitive_desc_query_md(bwd_pd, dnnl_query_scratchpad_md, 0);
  size_t scratch_size = dnnl_memory_desc_get_size(scratch_md);
  printf("implementation %s, scratchpad %zu bytes\n", impl, scratch_size);

  float *x = malloc(sizeof(float) * N * H * W * C), *dy = malloc(sizeof(float) * N * OH * OW * K);
  for (int i = 0; i < N * H * W * C; ++i) x[i] = (float)((i * 7) % 5 - 2);    // small integers: every sum exact
  for (int i = 0; i < N * OH * OW * K; ++i) dy[i] = (float)((i * 3) % 7 - 3);
  unsigned char *scratch = malloc(scratch_size + GUARD);
  memset(scratch, 0xab, scratch_size + GUARD);
  dnnl_memory_t m_src, m_dst, m_wei, m_plain, m_scratch;
  CHECK(dnnl_memory_create(&m_src, &src, engine, x));
  CHECK(dnnl_memory_create(&m_dst, &dst, engine, dy));
  CHECK(dnnl_memory_create(&m_wei, wei, engine, DNNL_MEMORY_ALLOCATE));
  CHECK(dnnl_memory_create(&m_plain, &wei_plain, engine, DNNL_MEMORY_ALLOCATE));
  CHECK(dnnl_memory_create(&m_scratch, scratch_md, engine, scratch));
  dnnl_primitive_t conv;
  CHECK(dnnl_primitive_create(&conv, bwd_pd));
  dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, m_src}, {DNNL_ARG_DIFF_DST, m_dst}, {DNNL_ARG_DIFF_WEIGHTS, m_wei},
                            {DNNL_ARG_SCRATCHPAD, m_scratch}};
  CHECK(dnnl_primitive_execute(conv, stream, 4, args));
  CHECK(dnnl_stream_wait(stream));
  size_t past = 0;
  for (size_t i = scratch_size; i < scratch_size + GUARD; ++i) past += scratch[i] != 0xab;
  printf("bytes written past the scratchpad: %zu of the %d after it\n", past, GUARD);

  dnnl_primitive_desc_t reorder_pd; dnnl_primitive_t reorder;
  CHECK(dnnl_reorder_primitive_desc_create(&reorder_pd, wei, engine, &wei_plain, engine, NULL));
  CHECK(dnnl_primitive_create(&reorder, reorder_pd));
  dnnl_exec_arg_t rargs[] = {{DNNL_ARG_FROM, m_wei}, {DNNL_ARG_TO, m_plain}};
  CHECK(dnnl_primitive_execute(reorder, stream, 2, rargs));
  CHECK(dnnl_stream_wait(stream));
  float *dw; CHECK(dnnl_memory_get_data_handle(m_plain, (void **)&dw));
  double max_error = 0;  // grad_weight[k][c] = sum over n, oh, ow of x[n][oh*SH][ow*SW][c] * dy[n][oh][ow][k]
  for (int k = 0; k < K; ++k)
    for (int c = 0; c < C; ++c) {
      double sum = 0;
      for (int n = 0; n < N; ++n)
        for (int oh = 0; oh < OH; ++oh)
          for (int ow = 0; ow < OW; ++ow)
            sum += (double)x[((n * H + oh * SH) * W + ow * SW) * C + c] * dy[((n * OH + oh) * OW + ow) * K + k];
      double error = dw[k * C + c] - sum; if (error < 0) error = -error;
      if (error > max_error) max_error = error;
    }
  printf("grad_weight max |error| against float64: %g (exact inputs: 0 expected)\n", max_error);
  return past != 0 || max_error != 0;
}
