#ifndef TAGARELA_CARGON2_SHIM_H
#define TAGARELA_CARGON2_SHIM_H
#include <argon2.h>
#endif
