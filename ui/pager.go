package ui

// Pager moves through pages; Go is called with the 0-based page wanted.
type Pager struct {
	Page, Pages int
	Go          func(int)
}
