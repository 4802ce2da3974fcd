// SPDX-License-Identifier: GPL-2.0
// The run-time switch of the mutations compiled into a build (the
// LOOM_MUTATE_<NAME> defines of the equivalence harnesses' mutation
// checks), included in the body of a module that has one, under its
// define.  A mutation is on unless the run names another: with the plusarg
// +loom_mutate=NAME only the mutations called NAME are on (none with
// +loom_mutate=none), so one build holding several mutations is checked
// one mutation at a time.
	function automatic logic loom_mutation_on(input string name);
		string which;
		begin
			loom_mutation_on = $value$plusargs("loom_mutate=%s", which) == 0 || which == name;
		end
	endfunction
