package core

import (
	"context"
	"errors"
	"unsafe"

	"imas/core/gelog"
	"imas/core/input"
	"imas/core/internal/wire"
	"imas/core/model"
	"imas/core/store"
)

// Chunks can be parsed in another instance of the same build: the page
// runs its parsers in Web Workers, each a wasm instance of its own. The
// pipeline stays the same (the reader cuts chunks, the consumer merges
// them in file order); only the parse of a chunk goes elsewhere, as a
// ChunkRequest encoded into bytes, and comes back as the parsed chunk
// encoded into bytes, decoded into the very chunkResult a local parse
// gives. So the records, their order and the report are the same.

// ChunkRequest is one chunk to parse: a run of whole lines of input file
// File (see input.Chunk).
type ChunkRequest struct {
	Data         []byte
	Cut          []int
	Unterminated bool
	File         int32
	MaxLine      int
}

// A ChunkParser parses a chunk elsewhere: it hands head followed by data
// (together, AppendChunkRequest's bytes; apart, so that the chunk is not
// copied once more) to a ChunkWorker and returns what its Parse returned.
// An error (the worker is gone, the run is cancelled) makes the pipeline
// parse the chunk itself.
type ChunkParser func(ctx context.Context, head, data []byte) ([]byte, error)

const (
	chunkMagic   = "imasCHK1"
	requestMagic = "imasREQ1"
)

var errChunk = errors.New("core: damaged parsed chunk")

// AppendChunkRequest appends the encoding of req to b: its head, then its
// data.
func AppendChunkRequest(b []byte, req ChunkRequest) []byte {
	return append(appendRequestHead(b, req), req.Data...)
}

// appendRequestHead appends what comes before the data.
func appendRequestHead(b []byte, req ChunkRequest) []byte {
	b = append(b, requestMagic...)
	b = wire.AppendVarint(b, int64(req.File))
	b = wire.AppendVarint(b, int64(req.MaxLine))
	b = wire.AppendBool(b, req.Unterminated)
	b = wire.AppendUvarint(b, uint64(len(req.Cut)))
	for _, c := range req.Cut {
		b = wire.AppendUvarint(b, uint64(c))
	}
	return wire.AppendUvarint(b, uint64(len(req.Data)))
}

// ReadChunkRequest decodes AppendChunkRequest's bytes; Data aliases b.
func ReadChunkRequest(b []byte) (ChunkRequest, error) {
	var req ChunkRequest
	if len(b) < len(requestMagic) || string(b[:len(requestMagic)]) != requestMagic {
		return req, errChunk
	}
	r := wire.NewReader(b[len(requestMagic):])
	req.File = int32(r.Varint())
	req.MaxLine = int(r.Varint())
	req.Unterminated = r.Bool()
	if n := r.Count(1); n > 0 {
		req.Cut = make([]int, n)
		for i := range req.Cut {
			req.Cut[i] = int(r.Uvarint())
		}
	}
	req.Data = r.Bytes()
	if r.Err() != nil || req.MaxLine <= 0 {
		return req, errChunk
	}
	for _, c := range req.Cut {
		if c < 0 || c >= len(req.Data) {
			return req, errChunk
		}
	}
	return req, nil
}

// A ChunkWorker parses chunks for a pipeline in another instance. The zero
// value is ready; it keeps the sizing of its tapes from chunk to chunk.
type ChunkWorker struct {
	sc chunkScratch
}

// Parse parses the chunk AppendChunkRequest encoded and returns the parsed
// chunk, encoded.
func (w *ChunkWorker) Parse(request []byte) ([]byte, error) {
	req, err := ReadChunkRequest(request)
	if err != nil {
		return nil, err
	}
	c := &input.Chunk{Data: req.Data, Cut: req.Cut, Unterminated: req.Unterminated}
	return appendChunk(nil, parseChunk(c, req.File, req.MaxLine, &w.sc))
}

const itemBytes = int(unsafe.Sizeof(item{}))

// hint is one entry of a chunk's size hints.
type hint struct {
	key  model.HintKey
	hint model.Hint
}

var (
	overlongCodec = store.NewCodec[overlong]()
	hintCodec     = store.NewCodec[hint]()
)

// appendChunk appends the encoding of a parsed chunk to b. Items are
// pointer-free and travel as they lie in memory (both ends run one build).
func appendChunk(b []byte, r *chunkResult) ([]byte, error) {
	b = append(b, chunkMagic...)
	b = wire.AppendUvarint(b, uint64(itemBytes))
	b = wire.AppendVarint(b, r.lines)
	b = wire.AppendVarint(b, r.candidates)
	b = wire.AppendVarint(b, r.rejected)
	b = wire.AppendUvarint(b, uint64(len(r.items)))
	if len(r.items) > 0 {
		b = append(b, unsafe.Slice((*byte)(unsafe.Pointer(&r.items[0])), len(r.items)*itemBytes)...)
	}
	b = r.tape.AppendBinary(b)
	b = wire.AppendUvarint(b, uint64(len(r.records)))
	var err error
	for _, rec := range r.records {
		if b, err = store.AppendRecord(b, rec); err != nil {
			return nil, err
		}
	}
	b = wire.AppendUvarint(b, uint64(len(r.overlong)))
	for i := range r.overlong {
		b = overlongCodec.Append(b, &r.overlong[i])
	}
	b = wire.AppendUvarint(b, uint64(len(r.hints)))
	for k, h := range r.hints {
		b = hintCodec.Append(b, &hint{k, h})
	}
	return b, nil
}

// readChunk decodes appendChunk's bytes. Nothing of the result aliases b.
func readChunk(b []byte) (*chunkResult, error) {
	if len(b) < len(chunkMagic) || string(b[:len(chunkMagic)]) != chunkMagic {
		return nil, errChunk
	}
	rd := wire.NewReader(b[len(chunkMagic):])
	if rd.Uvarint() != uint64(itemBytes) {
		return nil, errChunk
	}
	r := &chunkResult{lines: rd.Varint(), candidates: rd.Varint(), rejected: rd.Varint()}
	n := rd.Count(itemBytes)
	r.items = make([]item, n)
	if raw := rd.Raw(n * itemBytes); n > 0 && len(raw) == n*itemBytes {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&r.items[0])), n*itemBytes), raw)
	}
	var err error
	if r.tape, err = store.ReadRowTape(rd); err != nil {
		return nil, err
	}
	if n := rd.Count(1); n > 0 {
		r.records = make([]gelog.Record, n)
		for i := range r.records {
			if r.records[i], err = store.ReadRecord(rd); err != nil {
				return nil, err
			}
		}
	}
	if n := rd.Count(3); n > 0 {
		r.overlong = make([]overlong, n)
		for i := range r.overlong {
			overlongCodec.Read(rd, &r.overlong[i])
		}
	}
	n = rd.Count(6)
	r.hints = make(map[model.HintKey]model.Hint, n)
	for range n {
		var h hint
		hintCodec.Read(rd, &h)
		r.hints[h.key] = h.hint
	}
	if rd.Err() != nil || rd.Len() != 0 {
		return nil, errChunk
	}
	// Every item must point at a row or a record that is there.
	for _, it := range r.items {
		if it.ref >= 0 && it.ref >= int64(r.tape.Len()) || it.ref < 0 && ^it.ref >= int64(len(r.records)) {
			return nil, errChunk
		}
	}
	return r, nil
}

// parse parses job j's chunk: through opt.Parser when there is one, else
// (or when it fails) here.
func (p *pipeline) parse(j job, sc *chunkScratch) *chunkResult {
	if p.opt.Parser != nil {
		if p.ctx.Err() != nil {
			return &chunkResult{} // the run is cancelled: its results are not used
		}
		head := appendRequestHead(nil, ChunkRequest{Data: j.chunk.Data, Cut: j.chunk.Cut,
			Unterminated: j.chunk.Unterminated, File: j.file, MaxLine: p.opt.MaxLine})
		if b, err := p.opt.Parser(p.ctx, head, j.chunk.Data); err == nil {
			if r, err := readChunk(b); err == nil {
				return r
			}
		} else if p.ctx.Err() != nil {
			return &chunkResult{}
		}
	}
	return parseChunk(j.chunk, j.file, p.opt.MaxLine, sc)
}
