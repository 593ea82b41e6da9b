#ifndef TAGARELA_CMALLOC_SHIM_H
#define TAGARELA_CMALLOC_SHIM_H
/* glibc's malloc extensions (malloc_trim), which the Glibc module does not import. */
#include <malloc.h>
#endif
