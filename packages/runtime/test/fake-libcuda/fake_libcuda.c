/*
 * A stand-in for libcuda.so.1 with the entry points syclkit's CUDA back end declares, for testing
 * the koffi binding on machines without an NVIDIA driver. It is not a GPU: device memory is host
 * memory, a "module" is the PTX text, and cuLaunchKernel runs nothing except one kernel it knows
 * by name, `fake_axpy(u64 y, u64 x, f32 a)`: y[i] += a * x[i] for every thread of the launch.
 * A PTX text containing FAKE_BUILD_ERROR fails to build with an error log. A launch of the kernel
 * named by $FAKE_CUDA_FAULT_KERNEL "faults": the next cuCtxSynchronize returns
 * CUDA_ERROR_ILLEGAL_ADDRESS, as a kernel's out-of-bounds access does on a GPU. A launch of a
 * kernel that $FAKE_CUDA_PRINTF ("name:lines,name:lines") names "calls printf" that many times:
 * like the driver's device printf buffer, the lines reach stdout (through stdio, buffered) only at
 * the next synchronization point (cuCtxSynchronize, cuMemcpyDtoH, cuModuleUnload).
 *
 * Build: cc -shared -fPIC -o libcuda.so.1 fake_libcuda.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

typedef int CUresult;
typedef struct { char *text; size_t size; } fake_module;
typedef struct { fake_module *module; char name[256]; } fake_function;
typedef struct { char *text; size_t size; } fake_link;

static int initialized;
static int launches;
static int live_allocations;
static int context_token;
static int pending_fault;
static long pending_printf;

/* The count `list` ("name:count,name:count") gives `name`, 0 when it is not there. */
static long printf_lines(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *at = list; at != NULL && *at != '\0'; at = strchr(at, ',') ? strchr(at, ',') + 1 : NULL) {
    if (strncmp(at, name, n) == 0 && at[n] == ':') return atol(at + n + 1);
  }
  return 0;
}

static void flush_printf(void) {
  for (long i = 0; i < pending_printf; i++) printf("[fake device printf] %ld\n", i);
  pending_printf = 0;
}

int fakecuda_launch_count(void) { return launches; }
int fakecuda_live_allocations(void) { return live_allocations; }

CUresult cuInit(unsigned int flags) { (void)flags; initialized = 1; return 0; }
CUresult cuDriverGetVersion(int *version) { *version = 13000; return 0; }
CUresult cuDeviceGetCount(int *count) { if (!initialized) return 3; *count = 1; return 0; }
CUresult cuDeviceGet(int *device, int ordinal) { if (!initialized) return 3; if (ordinal != 0) return 101; *device = 0; return 0; }
CUresult cuDeviceGetName(char *name, int len, int device) {
  (void)device;
  snprintf(name, (size_t)len, "%s", "Fake H100 (syclkit fake libcuda)");
  return 0;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  switch (attribute) {
  case 1: *value = 1024; return 0;                 /* max threads per block */
  case 2: case 3: *value = 1024; return 0;         /* max block dim x, y */
  case 4: *value = 64; return 0;                   /* max block dim z */
  case 5: *value = 2147483647; return 0;           /* max grid dim x */
  case 6: case 7: *value = 65535; return 0;
  case 8: *value = 49152; return 0;
  case 10: *value = 32; return 0;                  /* warp size */
  case 16: *value = 132; return 0;
  case 41: case 83: case 89: case 120: *value = 1; return 0;
  case 86: case 88: *value = 0; return 0;
  case 75: *value = 9; return 0;                   /* compute capability 9.0 */
  case 76: *value = 0; return 0;
  default: return 1;
  }
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, int device) { (void)device; *bytes = (size_t)80 << 30; return 0; }
CUresult cuDevicePrimaryCtxRetain(void **context, int device) { (void)device; *context = &context_token; return 0; }
CUresult cuCtxSetCurrent(void *context) { return context == &context_token ? 0 : 201; }
CUresult cuCtxSynchronize(void) {
  if (pending_fault) return 700; /* and stays, as the lost context does on a GPU */
  flush_printf();
  return 0;
}

static void jit_options(unsigned int n, int *options, void **values, const char *info, const char *error) {
  size_t info_size = 0, error_size = 0;
  for (unsigned int i = 0; i < n; i++) {
    if (options[i] == 4) info_size = (size_t)(uintptr_t)values[i];
    if (options[i] == 6) error_size = (size_t)(uintptr_t)values[i];
  }
  for (unsigned int i = 0; i < n; i++) {
    if (options[i] == 2) { float ms = 0.25f; memcpy(&values[i], &ms, sizeof ms); }
    if (options[i] == 3 && info_size > 0) snprintf((char *)values[i], info_size, "%s", info);
    if (options[i] == 5 && error_size > 0) snprintf((char *)values[i], error_size, "%s", error);
  }
}

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned int n, int *options, void **values) {
  const char *text = (const char *)image;
  if (strstr(text, "FAKE_BUILD_ERROR") != NULL) {
    jit_options(n, options, values, "", "ptxas application ptx input, line 1; error   : FAKE_BUILD_ERROR found");
    return 218;
  }
  jit_options(n, options, values, "ptxas info    : fake JIT compiled the module", "");
  fake_module *m = malloc(sizeof *m);
  m->size = strlen(text);
  m->text = malloc(m->size + 1);
  memcpy(m->text, text, m->size + 1);
  *module = m;
  return 0;
}
CUresult cuModuleUnload(void *module) {
  fake_module *m = module;
  flush_printf();
  free(m->text);
  free(m);
  return 0;
}
CUresult cuModuleGetFunction(void **fn, void *module, const char *name) {
  fake_module *m = module;
  char pattern[300];
  snprintf(pattern, sizeof pattern, ".entry %s(", name);
  if (strstr(m->text, pattern) == NULL) return 500;
  fake_function *f = malloc(sizeof *f);
  f->module = m;
  snprintf(f->name, sizeof f->name, "%s", name);
  *fn = f;
  return 0;
}
CUresult cuFuncGetAttribute(int *value, int attribute, void *fn) {
  (void)fn;
  if (attribute == 0) { *value = 1024; return 0; }
  if (attribute == 4) { *value = 16; return 0; }
  return 1;
}
CUresult cuLinkCreate_v2(unsigned int n, int *options, void **values, void **state) {
  jit_options(n, options, values, "", "");
  fake_link *l = calloc(1, sizeof *l);
  l->text = calloc(1, 1);
  *state = l;
  return 0;
}
CUresult cuLinkAddData_v2(void *state, int type, const void *data, size_t size, const char *name, unsigned int n, int *options, void **values) {
  (void)name; (void)n; (void)options; (void)values;
  fake_link *l = state;
  if (type != 1) return 1;
  size_t len = strnlen((const char *)data, size);
  l->text = realloc(l->text, l->size + len + 2);
  memcpy(l->text + l->size, data, len);
  l->size += len;
  l->text[l->size++] = '\n';
  l->text[l->size] = 0;
  return 0;
}
CUresult cuLinkComplete(void *state, void **cubin, size_t *size) {
  fake_link *l = state;
  *cubin = l->text;
  *size = l->size + 1;
  return 0;
}
CUresult cuLinkDestroy(void *state) {
  fake_link *l = state;
  free(l->text);
  free(l);
  return 0;
}
CUresult cuMemAlloc_v2(uint64_t *pointer, size_t bytes) {
  void *p = calloc(1, bytes == 0 ? 1 : bytes);
  if (p == NULL) return 2;
  live_allocations++;
  *pointer = (uint64_t)(uintptr_t)p;
  return 0;
}
CUresult cuMemFree_v2(uint64_t pointer) { free((void *)(uintptr_t)pointer); live_allocations--; return 0; }
CUresult cuMemcpyHtoD_v2(uint64_t destination, const void *source, size_t bytes) { memcpy((void *)(uintptr_t)destination, source, bytes); return 0; }
CUresult cuMemcpyDtoH_v2(void *destination, uint64_t source, size_t bytes) { flush_printf(); memcpy(destination, (const void *)(uintptr_t)source, bytes); return 0; }
CUresult cuLaunchKernel(void *fn, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by, unsigned int bz,
                        unsigned int shared, void *stream, void **params, void **extra) {
  (void)shared; (void)stream; (void)extra;
  fake_function *f = fn;
  launches++;
  const char *fault = getenv("FAKE_CUDA_FAULT_KERNEL");
  if (fault != NULL && strcmp(fault, f->name) == 0) pending_fault = 1;
  pending_printf += printf_lines(getenv("FAKE_CUDA_PRINTF"), f->name);
  if (strcmp(f->name, "fake_axpy") == 0) {
    float *y, *x, a;
    uint64_t yp, xp;
    memcpy(&yp, params[0], 8);
    memcpy(&xp, params[1], 8);
    memcpy(&a, params[2], 4);
    y = (float *)(uintptr_t)yp;
    x = (float *)(uintptr_t)xp;
    size_t threads = (size_t)gx * gy * gz * bx * by * bz;
    for (size_t i = 0; i < threads; i++) y[i] += a * x[i];
  }
  return 0;
}
CUresult cuGetErrorName(int error, const char **name) {
  switch (error) {
  case 0: *name = "CUDA_SUCCESS"; return 0;
  case 218: *name = "CUDA_ERROR_INVALID_PTX"; return 0;
  case 500: *name = "CUDA_ERROR_NOT_FOUND"; return 0;
  case 3: *name = "CUDA_ERROR_NOT_INITIALIZED"; return 0;
  case 700: *name = "CUDA_ERROR_ILLEGAL_ADDRESS"; return 0;
  default: *name = NULL; return 1;
  }
}
CUresult cuGetErrorString(int error, const char **text) {
  switch (error) {
  case 218: *text = "a PTX JIT compilation failed"; return 0;
  case 500: *text = "named symbol not found"; return 0;
  case 700: *text = "an illegal memory access was encountered"; return 0;
  default: *text = NULL; return 1;
  }
}
