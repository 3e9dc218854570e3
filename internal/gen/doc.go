// Package gen writes deterministic, realistic GE plogs (the Ascend CANN
// Graph Engine logs imas reads) together with the exact figures a correct
// analyzer must report for them (truth.json, schema of
// testdata/samples/*/truth.json).
//
// The truth is computed from the generator's own ground-truth model — the
// graphs, blocks, lifetimes, pools and allocations it simulated — never by
// reading the logs back, under the rules of docs/figures.md.
//
// # Model
//
// Each static graph is a topologically ordered list of operators with
// outputs and workspaces (realsize = align32(noalign)+32 for outputs,
// align32(noalign) for workspaces, as in the samples). A best-fit block
// assigner places them in lifetime order: a block (size = align512 of its
// largest tenant) is reused only by a tensor of the same memory type and
// stream whose life begins strictly after the end of every previous tenant
// (lifetimes are inclusive), except for injected conflicts. Blocks are laid
// out in creation order; the HBM area continues with the atomic pieces and
// ends with the zero-copy blocks (graph inputs/outputs); AfterAssignMemory's
// memoffset is that end. Continuous-input segments are one block whose
// members sit one after another (their Continuous input lines give the
// member offsets); in-place aliases (isref[1]) share their target's block
// and are printed right after it.
//
// # Lines
//
// Every statement is printed in the template of its process's generation
// (docs/log-formats.md): Gen2020 (no tid, no optype/memtype, plain
// lifetimes), Gen2021 (2021-2023: scope[-1], "b-id" begins, single end,
// EVENT-level summaries with memoffset/memtype only) and Gen2025 (HEAD:
// block_type[], "--" descs such as 12--13 and 9--4294967295, stream descs
// such as 5--2, [EVENT] run-log copies plus debug copies within 2 ms, full
// AfterAssignMemory). Noise lines never contain a statement marker.
//
// See Profile, ProcessSpec and Hostile for the knobs, ProfileByName for the
// built-in profiles, Generate / GenerateStream to write, and
// (*Truth).WriteJSON for truth.json.
package gen
