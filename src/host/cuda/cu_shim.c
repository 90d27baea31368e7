/*
 * cu_shim.c - libcuda.so.1: nothing of its own. It needs libcudart.so.13, which holds the
 * driver API beside the runtime (one device, one memory): a program or a dlopen of
 * libcuda.so.1 finds every cu* function there.
 */
extern int cuDriverGetVersion(int *v);

/* A reference that keeps libcudart.so.13 among this library's dependencies. */
__attribute__((visibility("default"))) int ptxi_cuda_driver_version(void)
{
	int v = 0;
	cuDriverGetVersion(&v);
	return v;
}
