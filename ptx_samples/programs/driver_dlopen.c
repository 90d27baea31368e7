/* The driver API as JIT-ing libraries (Triton, CuPy) reach it: libcuda.so.1 opened at run
 * time and each function looked up by name (driver.c launches through the same functions).
 * Built with cc alone: no CUDA header or library (tests/exec.sh). */
#include <dlfcn.h>
#include <stdio.h>

typedef int (*init_fn)(unsigned);
typedef int (*version_fn)(int *);
typedef int (*count_fn)(int *);

int main(void)
{
	void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
	if (!cuda) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	init_fn init = (init_fn)dlsym(cuda, "cuInit");
	version_fn version = (version_fn)dlsym(cuda, "cuDriverGetVersion");
	count_fn count = (count_fn)dlsym(cuda, "cuDeviceGetCount");
	void *missing = dlsym(cuda, "cuNoSuchFunction");
	if (!init || !version || !count) {
		printf("dlsym: a driver function is missing\n");
		return 1;
	}
	int v = 0, n = 0;
	int r1 = version(&v);
	int r2 = count(&n);
	printf("before cuInit: cuDriverGetVersion %d (%d), cuDeviceGetCount %d\n", r1, v, r2);
	printf("cuInit %d\n", init(0));
	r2 = count(&n);
	printf("cuDeviceGetCount %d: %d device(s)\n", r2, n);
	printf("cuNoSuchFunction %s\n", missing ? "found" : "not found");
	return dlclose(cuda);
}
