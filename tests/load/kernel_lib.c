/* kernel_lib.c — a kernel library for tests/load/test_kernel_descriptions.cpp: one kernel
 * function and one data symbol. Its constructor counts loads, so a test can see that it ran. */
#include <stdint.h>

int rtpar_test_kernel_loads = 0;

__attribute__((constructor)) static void count_load(void) { ++rtpar_test_kernel_loads; }

void test_job(const void* job) { (void)job; }
