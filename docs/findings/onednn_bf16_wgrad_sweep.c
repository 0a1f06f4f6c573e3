// oneDNN 3.x bf16 conv weight gradients over a grid (groups, channels, width, kernel, dilation, padding, layout):
// which come out wrong, on which kernel. Inputs in {-1, 0, 1}, so every sum is an integer of at most 128: exact in bf16.
#define _GNU_SOURCE
#include <oneapi/dnnl/dnnl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK(f) do { dnnl_status_t s_ = (f); if (s_ != dnnl_success) { printf("%s: status %d\n", #f, (int)s_); exit(2); } } while (0)
static dnnl_engine_t engine; static dnnl_stream_t stream;
static uint16_t bf(float f) { uint32_t u; memcpy(&u, &f, 4); return (uint16_t)(u >> 16); }
static float fb(uint16_t h) { uint32_t u = (uint32_t)h << 16; float f; memcpy(&f, &u, 4); return f; }
static int run(int G, int CG, int KG, int IH, int IW, int KW, int DW, int PL, int PR, int nhwc, int DH, int KH, char *impl) {
  int N = 1, C = G * CG, K = G * KG, OH = IH + 2 * (KH / 2) * 0 - (KH - 1) * DH; if (OH < 1) return -1;
  int span = IW + PL + PR - ((KW - 1) * DW + 1); if (span < 0) return -1; int OW = span + 1;
  dnnl_dims_t sd = {N, C, IH, IW}, dd = {N, K, OH, OW}, st = {1, 1}, dl = {DH - 1, DW - 1}, pl = {0, PL}, pr = {0, PR};
  dnnl_dims_t wd = {G, KG, CG, KH, KW};
  dnnl_format_tag_t dt = nhwc ? dnnl_acdb : dnnl_abcd;
  dnnl_memory_desc_t s_md, d_md, w_any, w_plain;
  CHECK(dnnl_memory_desc_create_with_tag(&s_md, 4, sd, dnnl_bf16, dt));
  CHECK(dnnl_memory_desc_create_with_tag(&d_md, 4, dd, dnnl_bf16, dt));
  CHECK(dnnl_memory_desc_create_with_tag(&w_any, 5, wd, dnnl_bf16, dnnl_format_tag_any));
  CHECK(dnnl_memory_desc_create_with_tag(&w_plain, 5, wd, dnnl_f32, dnnl_abcde));
  dnnl_primitive_desc_t fwd, pd;
  if (dnnl_convolution_forward_primitive_desc_create(&fwd, engine, dnnl_forward_training, dnnl_convolution_direct, s_md, w_any, NULL, d_md, st, dl, pl, pr, NULL) != dnnl_success) return -2;
  if (dnnl_convolution_backward_weights_primitive_desc_create(&pd, engine, dnnl_convolution_direct, s_md, w_any, NULL, d_md, st, dl, pl, pr, fwd, NULL) != dnnl_success) return -2;
  const char *name; CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name)); strcpy(impl, name);
  const_dnnl_memory_desc_t wq = dnnl_primitive_desc_query_md(pd, dnnl_query_diff_weights_md, 0);
  size_t ns = (size_t)N * C * IH * IW, nd = (size_t)N * K * OH * OW, nw = (size_t)G * KG * CG * KH * KW;
  uint16_t *s = malloc(ns * 2), *d = malloc(nd * 2); float *sl = malloc(ns * 4), *dlg = malloc(nd * 4), *w = malloc(nw * 4);
  unsigned r = 777;
  for (int n = 0; n < N; ++n) for (int c = 0; c < C; ++c) for (int h = 0; h < IH; ++h) for (int x = 0; x < IW; ++x) {
    r = r * 1103515245 + 12345; float v = (float)((int)((r >> 16) % 3) - 1);
    size_t li = ((size_t)(n * C + c) * IH + h) * IW + x, pi = nhwc ? ((size_t)(n * IH + h) * IW + x) * C + c : li;
    sl[li] = v; s[pi] = bf(v); }
  for (int n = 0; n < N; ++n) for (int k = 0; k < K; ++k) for (int h = 0; h < OH; ++h) for (int x = 0; x < OW; ++x) {
    r = r * 1103515245 + 12345; float v = (float)((int)((r >> 16) % 3) - 1);
    size_t li = ((size_t)(n * K + k) * OH + h) * OW + x, pi = nhwc ? ((size_t)(n * OH + h) * OW + x) * K + k : li;
    dlg[li] = v; d[pi] = bf(v); }
  void *wb = calloc(1, dnnl_memory_desc_get_size(wq) + 64);
  dnnl_memory_t sm, dm, wm, wpm; dnnl_primitive_t p, reo;
  CHECK(dnnl_memory_create(&sm, s_md, engine, s)); CHECK(dnnl_memory_create(&dm, d_md, engine, d));
  CHECK(dnnl_memory_create(&wm, wq, engine, wb)); CHECK(dnnl_memory_create(&wpm, w_plain, engine, w));
  CHECK(dnnl_primitive_create(&p, pd));
  dnnl_exec_arg_t a[3] = {{DNNL_ARG_SRC, sm}, {DNNL_ARG_DIFF_DST, dm}, {DNNL_ARG_DIFF_WEIGHTS, wm}};
  CHECK(dnnl_primitive_execute(p, stream, 3, a));
  dnnl_primitive_desc_t rpd; CHECK(dnnl_reorder_primitive_desc_create(&rpd, wq, engine, w_plain, engine, NULL));
  CHECK(dnnl_primitive_create(&reo, rpd)); dnnl_exec_arg_t ra[2] = {{DNNL_ARG_FROM, wm}, {DNNL_ARG_TO, wpm}};
  CHECK(dnnl_primitive_execute(reo, stream, 2, ra)); CHECK(dnnl_stream_wait(stream));
  int wrong = 0;
  for (int g = 0; g < G; ++g) for (int kg = 0; kg < KG; ++kg) for (int cg = 0; cg < CG; ++cg) for (int kh = 0; kh < KH; ++kh) for (int kw = 0; kw < KW; ++kw) {
    double acc = 0; int k = g * KG + kg, c = g * CG + cg;
    for (int h = 0; h < OH; ++h) for (int ow = 0; ow < OW; ++ow) { int x = ow - PL + kw * DW, y = h + kh * DH; if (x < 0 || x >= IW) continue;
      acc += (double)sl[((size_t)c * IH + y) * IW + x] * dlg[((size_t)k * OH + h) * OW + ow]; }
    float got = w[(((size_t)(g * KG + kg) * CG + cg) * KH + kh) * KW + kw];
    if (got != (float)acc) ++wrong; }
  (void)fb;
  dnnl_primitive_destroy(p); dnnl_primitive_destroy(reo); dnnl_primitive_desc_destroy(rpd); dnnl_primitive_desc_destroy(pd); dnnl_primitive_desc_destroy(fwd);
  dnnl_memory_destroy(sm); dnnl_memory_destroy(dm); dnnl_memory_destroy(wm); dnnl_memory_destroy(wpm);
  free(s); free(d); free(sl); free(dlg); free(w); free(wb);
  return wrong;
}
int main(int argc, char **argv) {
  cpu_set_t one; CPU_ZERO(&one); CPU_SET(0, &one); if (argc < 2 || strcmp(argv[1], "all")) sched_setaffinity(0, sizeof one, &one);
  CHECK(dnnl_set_max_cpu_isa(dnnl_cpu_isa_avx512_core_bf16));
  CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0)); CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  char impl[256];
  int Gs[] = {1, 2, 6}, IWs[] = {8, 16, 28, 29, 30, 37, 64};
  for (int nhwc = 0; nhwc < 2; ++nhwc) for (int gi = 0; gi < 3; ++gi) for (int CG = 1; CG <= 2; ++CG) for (int KG = 1; KG <= 2; ++KG)
  for (int ii = 0; ii < 7; ++ii) for (int KW = 2; KW <= 5; KW += (KW == 3 ? 2 : 1)) for (int DW = 1; DW <= 3; ++DW)
  for (int PL = 0; PL <= 2; ++PL) for (int PR = 0; PR <= 3; ++PR) for (int DH = 1; DH <= 3; ++DH) for (int KH = 1; KH <= 2; ++KH) {
    int e = run(Gs[gi], CG, KG, 4, IWs[ii], KW, DW, PL, PR, nhwc, DH, KH, impl);
    if (e < 0) continue;
    printf("%s g%d cg%d kg%d iw%d kw%d dw%d pl%d pr%d dh%d kh%d %s %s\n", nhwc ? "nhwc" : "nchw", Gs[gi], CG, KG, IWs[ii], KW, DW, PL, PR, DH, KH, impl, e ? "WRONG" : "ok");
  }
  return 0;
}
