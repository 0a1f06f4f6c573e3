// oneDNN 3.x jit_bf16 weight gradients that return wrong values (docs/findings.md, "oneDNN 3.13's jit_bf16 weight
// gradient of a depth kernel longer than the input, padded at both ends", and the 2.6 bf16 entry's re-check).
// oneDNN's C API alone; bf16 src and diff_dst, bf16 diff_weights, f32 accumulation, channels-last data, weights in
// the layout oneDNN chooses (format `any`), at ISA cap AVX512_CORE_BF16, on exact small-integer inputs.
//   D=/path/to/onednn   (a oneDNN 3.x build, or the onednn and onednn-devel wheels' prefix)
//   cc -O1 onednn_bf16_wgrad_v3.c -I$D/include -L$D/lib -Wl,--disable-new-dtags,-rpath,$D/lib -ldnnl -lm -o bf16_wgrad
//   OCL_ICD_FILENAMES=$D/lib/libintelocl.so ./bf16_wgrad [PROBLEM]   (the wheels' SYCL CPU runtime needs the variable)
// Each problem prints the implementation that ran and the elements of diff_weights outside the bound (the float64
// sum rounded once to bf16: 2^-8 relative, plus float32 accumulation, 2 (n+1) 2^-24 sum|a*b|). The depth problem goes
// wrong only while each thread takes whole images (batch >= oneDNN's thread count): its batch is 8.
// Exit status: 0 every problem agreed, 1 one or more did not (the bug shows), 2 oneDNN refused or this host has no
// AVX512-BF16.
#include <oneapi/dnnl/dnnl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(f) do { dnnl_status_t s_ = (f); if (s_ != dnnl_success) { printf("%s: status %d\n", #f, (int)s_); exit(2); } } while (0)

// One conv, 3-D (depth, height, width; a lower rank has unit outer axes): groups, batch, channels, sizes, kernel,
// stride, dilation (1 = none), padding at the beginning and end of each axis.
typedef struct {
  const char *name, *what;
  int ndims; // spatial axes: 1, 2 or 3 (the last ones of D, H, W)
  long G, N, C, K, I[3], KS[3], S[3], DL[3], PB[3], PE[3];
  int expect_bug;
} problem_t;

static const problem_t problems[] = {
    {"depth", "3-D, depth kernel 3 over an input depth of 2, padded 1 at both ends (new on 3.13)", 3, 1, 8, 1, 1,
     {2, 1, 1}, {3, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 0, 0}, {1, 0, 0}, 1},
    {"depth-back-unpadded", "control: the same without back padding", 3, 1, 8, 1, 1, {2, 1, 1}, {3, 1, 1},
     {1, 1, 1}, {1, 1, 1}, {1, 0, 0}, {0, 0, 0}, 0},
    {"depth-kernel-fits", "control: input depth 3", 3, 1, 8, 1, 1, {3, 1, 1}, {3, 1, 1}, {1, 1, 1}, {1, 1, 1},
     {1, 0, 0}, {1, 0, 0}, 0},
    {"depth-wide", "3-D, 16 channels, the same depth axis", 3, 1, 8, 16, 16, {2, 3, 3}, {3, 1, 1}, {1, 1, 1},
     {1, 1, 1}, {1, 0, 0}, {1, 0, 0}, 1},
    {"stride-over-input", "1-D, width 1, stride 2 (2.6's shape; values vary from run to run)", 1, 1, 1, 16, 16,
     {1, 1, 1}, {1, 1, 3}, {1, 1, 2}, {1, 1, 1}, {0, 0, 1}, {0, 0, 1}, 1},
    {"dilated-groups", "2-D, 2 groups, width kernel 2 dilated 2, right padding 2 (2.6's third shape)", 2, 2, 1, 2, 2,
     {1, 2, 29}, {1, 1, 2}, {1, 1, 1}, {1, 2, 2}, {0, 0, 0}, {0, 0, 2}, 1},
};

static dnnl_engine_t engine;
static dnnl_stream_t stream;

static uint16_t to_bf16(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return (uint16_t)(u >> 16);
}
static float from_bf16(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float x;
  memcpy(&x, &u, 4);
  return x;
}

static void reorder(dnnl_memory_t from, dnnl_memory_t to) {
  const_dnnl_memory_desc_t from_md, to_md;
  CHECK(dnnl_memory_get_memory_desc(from, &from_md));
  CHECK(dnnl_memory_get_memory_desc(to, &to_md));
  dnnl_primitive_desc_t pd;
  dnnl_primitive_t p;
  CHECK(dnnl_reorder_primitive_desc_create(&pd, from_md, engine, to_md, engine, NULL));
  CHECK(dnnl_primitive_create(&p, pd));
  dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  CHECK(dnnl_primitive_execute(p, stream, 2, args));
  CHECK(dnnl_stream_wait(stream));
  dnnl_primitive_destroy(p);
  dnnl_primitive_desc_destroy(pd);
}

static long at(const long *dims, long a, long b, long z, long y, long x) {
  return (((a * dims[1] + b) * dims[2] + z) * dims[3] + y) * dims[4] + x;
}

// Runs one problem; returns 1 when diff_weights has elements outside the bound.
static int run(const problem_t *p) {
  long O[3];
  for (int a = 0; a < 3; ++a) O[a] = (p->I[a] + p->PB[a] + p->PE[a] - p->DL[a] * (p->KS[a] - 1) - 1) / p->S[a] + 1;
  const int first = 3 - p->ndims, rank = 2 + p->ndims, wrank = rank + (p->G > 1);
  dnnl_dims_t data_dims = {p->N, p->C}, out_dims = {p->N, p->K}, wei_dims, strides, dilates, pad_l, pad_r;
  int w = 0;
  if (p->G > 1) wei_dims[w++] = p->G;
  wei_dims[w++] = p->K / p->G, wei_dims[w++] = p->C / p->G;
  for (int a = first; a < 3; ++a) {
    data_dims[2 + a - first] = p->I[a], out_dims[2 + a - first] = O[a], wei_dims[w++] = p->KS[a];
    strides[a - first] = p->S[a], dilates[a - first] = p->DL[a] - 1, pad_l[a - first] = p->PB[a];
    pad_r[a - first] = p->PE[a];
  }
  const dnnl_format_tag_t plain = rank == 3 ? dnnl_abc : rank == 4 ? dnnl_abcd : dnnl_abcde;
  const dnnl_format_tag_t wplain = wrank == 3 ? dnnl_abc : wrank == 4 ? dnnl_abcd : wrank == 5 ? dnnl_abcde : dnnl_abcdef;
  const dnnl_format_tag_t channels_last = rank == 3 ? dnnl_acb : rank == 4 ? dnnl_acdb : dnnl_acdeb;
  dnnl_memory_desc_t data_canonical, out_canonical, wei_canonical, data_md, out_md, wei_md;
  CHECK(dnnl_memory_desc_create_with_tag(&data_canonical, rank, data_dims, dnnl_bf16, plain));
  CHECK(dnnl_memory_desc_create_with_tag(&out_canonical, rank, out_dims, dnnl_bf16, plain));
  CHECK(dnnl_memory_desc_create_with_tag(&wei_canonical, wrank, wei_dims, dnnl_bf16, wplain));
  CHECK(dnnl_memory_desc_create_with_tag(&data_md, rank, data_dims, dnnl_bf16, channels_last));
  CHECK(dnnl_memory_desc_create_with_tag(&out_md, rank, out_dims, dnnl_bf16, channels_last));
  CHECK(dnnl_memory_desc_create_with_tag(&wei_md, wrank, wei_dims, dnnl_bf16, dnnl_format_tag_any));
  dnnl_primitive_desc_t forward_pd, pd;
  CHECK(dnnl_convolution_forward_primitive_desc_create(&forward_pd, engine, dnnl_forward_training,
                                                       dnnl_convolution_direct, data_md, wei_md, NULL, out_md, strides,
                                                       dilates, pad_l, pad_r, NULL));
  CHECK(dnnl_convolution_backward_weights_primitive_desc_create(&pd, engine, dnnl_convolution_direct, data_md, wei_md,
                                                                NULL, out_md, strides, dilates, pad_l, pad_r,
                                                                forward_pd, NULL));
  const char *implementation;
  CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &implementation));

  // Exact inputs: integers -4..4 (bf16 holds them exactly), the same each run.
  const long src_size = p->N * p->C * p->I[0] * p->I[1] * p->I[2], dst_size = p->N * p->K * O[0] * O[1] * O[2];
  uint16_t *src = malloc(src_size * 2), *dy = malloc(dst_size * 2);
  unsigned r = 12345;
  for (long i = 0; i < src_size; ++i) r = r * 1103515245u + 12345u, src[i] = to_bf16((float)((int)((r >> 16) % 9) - 4));
  for (long i = 0; i < dst_size; ++i) r = r * 1103515245u + 12345u, dy[i] = to_bf16((float)((int)((r >> 16) % 9) - 4));
  dnnl_memory_t src_canonical, dy_canonical, src_mem, dy_mem, result, result_canonical;
  CHECK(dnnl_memory_create(&src_canonical, data_canonical, engine, src));
  CHECK(dnnl_memory_create(&dy_canonical, out_canonical, engine, dy));
  CHECK(dnnl_memory_create(&src_mem, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0), engine, DNNL_MEMORY_ALLOCATE));
  CHECK(dnnl_memory_create(&dy_mem, dnnl_primitive_desc_query_md(pd, dnnl_query_diff_dst_md, 0), engine, DNNL_MEMORY_ALLOCATE));
  CHECK(dnnl_memory_create(&result, dnnl_primitive_desc_query_md(pd, dnnl_query_diff_weights_md, 0), engine, DNNL_MEMORY_ALLOCATE));
  CHECK(dnnl_memory_create(&result_canonical, wei_canonical, engine, DNNL_MEMORY_ALLOCATE));
  reorder(src_canonical, src_mem);
  reorder(dy_canonical, dy_mem);
  dnnl_primitive_t primitive;
  CHECK(dnnl_primitive_create(&primitive, pd));
  dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src_mem}, {DNNL_ARG_DIFF_DST, dy_mem}, {DNNL_ARG_DIFF_WEIGHTS, result}};
  CHECK(dnnl_primitive_execute(primitive, stream, 3, args));
  CHECK(dnnl_stream_wait(stream));
  reorder(result, result_canonical);
  uint16_t *got;
  CHECK(dnnl_memory_get_data_handle(result_canonical, (void **)&got));

  // The definition in float64: dW[g][k][c][tap] = sum over n, output position o of src[n][g,c][o*S - PB + tap*DL] *
  // diff_dst[n][g,k][o].
  const long KG = p->K / p->G, CG = p->C / p->G, result_size = p->K * CG * p->KS[0] * p->KS[1] * p->KS[2];
  const long sd[5] = {p->N, p->C, p->I[0], p->I[1], p->I[2]}, od[5] = {p->N, p->K, O[0], O[1], O[2]};
  const long wd[5] = {p->K, CG, p->KS[0], p->KS[1], p->KS[2]};
  double *sum = calloc(result_size, sizeof(double)), *magnitude = calloc(result_size, sizeof(double));
  for (long n = 0; n < p->N; ++n)
    for (long k = 0; k < p->K; ++k)
      for (long c = 0; c < CG; ++c)
        for (long oz = 0; oz < O[0]; ++oz) for (long oy = 0; oy < O[1]; ++oy) for (long ox = 0; ox < O[2]; ++ox)
          for (long tz = 0; tz < p->KS[0]; ++tz) for (long ty = 0; ty < p->KS[1]; ++ty) for (long tx = 0; tx < p->KS[2]; ++tx) {
            const long z = oz * p->S[0] - p->PB[0] + tz * p->DL[0], y = oy * p->S[1] - p->PB[1] + ty * p->DL[1];
            const long x = ox * p->S[2] - p->PB[2] + tx * p->DL[2];
            if (z < 0 || z >= p->I[0] || y < 0 || y >= p->I[1] || x < 0 || x >= p->I[2]) continue;
            const double product = (double)from_bf16(src[at(sd, n, k / KG * CG + c, z, y, x)]) *
                                   from_bf16(dy[at(od, n, k, oz, oy, ox)]);
            const long wi = at(wd, k, c, tz, ty, tx);
            sum[wi] += product, magnitude[wi] += fabs(product);
          }
  const long terms = p->N * O[0] * O[1] * O[2];
  const double u = ldexp(1, -24), gamma = (terms + 1) * u / (1 - (terms + 1) * u);
  long over = 0, first_over = -1;
  for (long i = 0; i < result_size; ++i) {
    const double bound = ldexp(1, -8) * fabs(sum[i]) + 2 * gamma * magnitude[i] + 1e-37;
    const double error = fabs(from_bf16(got[i]) - sum[i]);
    if (error <= bound) continue;
    if (over++ == 0) first_over = i;
  }
  printf("%-20s %s on %s: %ld of %ld diff_weights elements outside the bound", p->name, p->what, implementation, over,
         result_size);
  if (first_over >= 0)
    printf("; element %ld: expected %.9g, got %.9g", first_over, sum[first_over], from_bf16(got[first_over]));
  printf("\n");
  dnnl_primitive_destroy(primitive);
  free(src), free(dy), free(sum), free(magnitude);
  return over != 0;
}

int main(int argc, char **argv) {
  CHECK(dnnl_set_max_cpu_isa(dnnl_cpu_isa_avx512_core_bf16));
  if (dnnl_get_effective_cpu_isa() != dnnl_cpu_isa_avx512_core_bf16) {
    printf("this host cannot run oneDNN's avx512_core_bf16 kernels\n");
    return 2;
  }
  CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  const dnnl_version_t *v = dnnl_version();
  printf("oneDNN %d.%d.%d\n", v->major, v->minor, v->patch);
  int bugs = 0, ran = 0;
  for (size_t i = 0; i < sizeof problems / sizeof *problems; ++i) {
    if (argc > 1 && strcmp(argv[1], problems[i].name) != 0) continue;
    bugs += run(&problems[i]);
    ++ran;
  }
  if (!ran) {
    printf("no problem called %s\n", argv[1]);
    return 2;
  }
  printf("%s\n", bugs ? "the bug shows" : "agreed");
  return bugs != 0;
}
