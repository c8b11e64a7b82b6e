// The mock server's tests arrive with the mock (issue 3); this file keeps the target present in a fresh clone.
