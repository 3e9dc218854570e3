// Command edge is imas on Cloudflare Workers (and npm's workerd): the same
// handler as "imas serve", with the Workers limits (server.Edge). Build it
// with "make worker", which writes dist/worker/.
package main

import (
	"github.com/syumai/workers"

	"imas/public"
	"imas/server"
)

func main() {
	workers.Serve(server.New(server.Edge(public.FS())))
}
