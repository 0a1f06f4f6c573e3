// oneDNN 3.x, f32 conv forward problems with a one- or two-column output: which come out wrong, on which kernel.
// docs/findings.md ("oneDNN 3.13's brg_conv_fwd gets a one-column output with a width stride over 1 wrong").
//   cc -O1 sweep.c -I$DNNL/include -L$DNNL/lib -Wl,--disable-new-dtags,-rpath,$DNNL/lib -ldnnl -o sweep
//   OCL_ICD_FILENAMES=$DNNL/lib/libintelocl.so ./sweep [all]   (on CPU 0 alone: one thread; `all`: every CPU)
// Prints one line per problem: layout, channels, sizes, the kernel oneDNN chose, ok or WRONG (integer inputs, exact sums).
#define _GNU_SOURCE
#include <oneapi/dnnl/dnnl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK(f) do { dnnl_status_t s_ = (f); if (s_ != dnnl_success) { printf("%s: status %d\n", #f, (int)s_); exit(2); } } while (0)
static dnnl_engine_t engine; static dnnl_stream_t stream;
// returns max abs error; prints impl
static double run(int N, int C, int K, int IH, int IW, int KH, int KW, int SH, int SW, int PT, int PL, int PR, int nhwc, char *impl) {
  int OH = (IH + 2 * PT - KH) / SH + 1, OW = (IW + PL + PR - KW) / SW + 1;
  if (OH < 1 || OW < 1) return -1;
  dnnl_dims_t sd = {N, C, IH, IW}, wd = {K, C, KH, KW}, dd = {N, K, OH, OW}, st = {SH, SW}, dl = {0, 0}, pl = {PT, PL}, pr = {PT, PR};
  dnnl_format_tag_t dt = nhwc ? dnnl_acdb : dnnl_abcd;
  dnnl_memory_desc_t s_md, d_md, w_any, w_plain;
  CHECK(dnnl_memory_desc_create_with_tag(&s_md, 4, sd, dnnl_f32, dt));
  CHECK(dnnl_memory_desc_create_with_tag(&d_md, 4, dd, dnnl_f32, dt));
  CHECK(dnnl_memory_desc_create_with_tag(&w_any, 4, wd, dnnl_f32, dnnl_format_tag_any));
  CHECK(dnnl_memory_desc_create_with_tag(&w_plain, 4, wd, dnnl_f32, dnnl_abcd));
  dnnl_primitive_desc_t pd;
  if (dnnl_convolution_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference, dnnl_convolution_direct, s_md, w_any, NULL, d_md, st, dl, pl, pr, NULL) != dnnl_success) return -2;
  const char *name; CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name)); strcpy(impl, name);
  const_dnnl_memory_desc_t w_md_c = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  size_t ns = (size_t)N * C * IH * IW, nw = (size_t)K * C * KH * KW, nd = (size_t)N * K * OH * OW;
  float *s = malloc(ns * 4), *w = malloc(nw * 4), *d = malloc(nd * 4), *wb = malloc(dnnl_memory_desc_get_size(w_md_c) + 64);
  // canonical index values; data in memory in tag order: fill by logical index function
  unsigned r = 12345;
  float *sl = malloc(ns * 4);
  for (size_t i = 0; i < ns; ++i) { r = r * 1103515245 + 12345; sl[i] = (float)((int)((r >> 16) % 7) - 3); }
  for (size_t i = 0; i < nw; ++i) { r = r * 1103515245 + 12345; w[i] = (float)((int)((r >> 16) % 7) - 3); }
  for (int n = 0; n < N; ++n) for (int c = 0; c < C; ++c) for (int h = 0; h < IH; ++h) for (int x = 0; x < IW; ++x) {
    size_t li = ((size_t)(n * C + c) * IH + h) * IW + x;
    size_t pi = nhwc ? ((size_t)(n * IH + h) * IW + x) * C + c : li; s[pi] = sl[li]; }
  dnnl_memory_t sm, wm, wbm, dm; dnnl_primitive_t reo, conv;
  CHECK(dnnl_memory_create(&sm, s_md, engine, s)); CHECK(dnnl_memory_create(&wm, w_plain, engine, w));
  CHECK(dnnl_memory_create(&wbm, w_md_c, engine, wb)); CHECK(dnnl_memory_create(&dm, d_md, engine, d));
  dnnl_primitive_desc_t rpd; CHECK(dnnl_reorder_primitive_desc_create(&rpd, w_plain, engine, w_md_c, engine, NULL));
  CHECK(dnnl_primitive_create(&reo, rpd)); dnnl_exec_arg_t ra[2] = {{DNNL_ARG_FROM, wm}, {DNNL_ARG_TO, wbm}};
  CHECK(dnnl_primitive_execute(reo, stream, 2, ra));
  CHECK(dnnl_primitive_create(&conv, pd));
  dnnl_exec_arg_t a[3] = {{DNNL_ARG_SRC, sm}, {DNNL_ARG_WEIGHTS, wbm}, {DNNL_ARG_DST, dm}};
  CHECK(dnnl_primitive_execute(conv, stream, 3, a)); CHECK(dnnl_stream_wait(stream));
  double worst = 0;
  for (int n = 0; n < N; ++n) for (int k = 0; k < K; ++k) for (int oh = 0; oh < OH; ++oh) for (int ow = 0; ow < OW; ++ow) {
    double acc = 0;
    for (int c = 0; c < C; ++c) for (int kh = 0; kh < KH; ++kh) for (int kw = 0; kw < KW; ++kw) {
      int h = oh * SH - PT + kh, x = ow * SW - PL + kw;
      if (h < 0 || h >= IH || x < 0 || x >= IW) continue;
      acc += (double)sl[((size_t)(n * C + c) * IH + h) * IW + x] * w[((size_t)(k * C + c) * KH + kh) * KW + kw]; }
    size_t pi = nhwc ? ((size_t)(n * OH + oh) * OW + ow) * K + k : ((size_t)(n * K + k) * OH + oh) * OW + ow;
    double e = acc - d[pi]; if (e < 0) e = -e; if (e > worst) worst = e; }
  dnnl_primitive_destroy(conv); dnnl_primitive_destroy(reo); dnnl_primitive_desc_destroy(rpd); dnnl_primitive_desc_destroy(pd);
  dnnl_memory_destroy(sm); dnnl_memory_destroy(wm); dnnl_memory_destroy(wbm); dnnl_memory_destroy(dm);
  free(s); free(sl); free(w); free(d); free(wb);
  return worst;
}
int main(int argc, char **argv) {
  cpu_set_t one; CPU_ZERO(&one); CPU_SET(0, &one); if (argc < 2 || strcmp(argv[1], "all")) sched_setaffinity(0, sizeof one, &one);
  CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0)); CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  char impl[256];
  for (int nhwc = 0; nhwc < 2; ++nhwc) for (int C = 1; C <= 2; ++C) for (int K = 1; K <= 4; K *= 2) for (int IH = 1; IH <= 5; IH += 2)
  for (int KH = 1; KH <= 3; KH += 2) for (int SW = 1; SW <= 3; ++SW) for (int KW = 1; KW <= 5; ++KW) for (int IW = 1; IW <= 6; ++IW)
  for (int PL = 0; PL <= 2; ++PL) for (int PR = 0; PR <= 2; ++PR) for (int OWT = 1; OWT <= 2; ++OWT) {
    int OW = (IW + PL + PR - KW); if (OW < 0) continue; OW = OW / SW + 1; if (OW != OWT) continue;
    if (PL >= KW || PR >= KW) continue;
    double e = run(1, C, K, IH, IW, KH, KW, 1, SW, KH / 2, PL, PR, nhwc, impl);
    if (e < -1.5) continue;
    printf("%s ic%d oc%d ih%d kh%d ph%d iw%d kw%d sw%d pl%d pr%d ow%d %s %s\n", nhwc ? "nhwc" : "nchw", C, K, IH, KH, KH / 2, IW, KW, SW, PL, PR, OW, impl, e > 0 ? "WRONG" : "ok");
  }
  return 0;
}
