// SPDX-License-Identifier: GPL-2.0
// The run-time switch of a mutation compiled into a build (a
// LOOM_MUTATE_<NAME> define of the equivalence harnesses' mutation
// checks): included in the body of the module that has it, under its
// define, after `define LOOM_MUTATION "name".  It declares mutate, set
// once at time 0: on, unless the run names another mutation with the
// plusarg +loom_mutate=NAME (+loom_mutate=none: every mutation off), so
// one build holding several mutations is checked one mutation at a time.
	logic mutate;
	string mutate_only;

	initial
		mutate = $value$plusargs("loom_mutate=%s", mutate_only) == 0 ||
			 mutate_only == `LOOM_MUTATION;
`undef LOOM_MUTATION
