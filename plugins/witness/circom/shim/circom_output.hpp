// Included first in every unit of circom's C++ output that zkpipe compiles (-include): what
// circom's code writes to std::cout (the line it prints before a failed assert, naming the
// template, its line and the component) goes to a per-thread buffer instead, so the generator
// puts it in the error of the calculation it belongs to and prints nothing itself.
#pragma once
#include <iostream>

namespace std {
// The calling thread's buffer (circom_generator.cpp). In namespace std only because circom's
// code spells it std::cout.
ostream& zkp_circom_output();
}  // namespace std

#define cout zkp_circom_output()
