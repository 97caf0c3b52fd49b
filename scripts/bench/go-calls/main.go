// Command go-calls lists the function calls of the Go files named on standard input (one path
// a line, relative to the directory given as the first argument), parsed with go/parser:
// one line per call, "FILE\tbare\tNAME" for `NAME(...)` and "FILE\tQUALIFIER\tNAME" for
// `QUALIFIER.NAME(...)`. Used by seed-go-namesakes.py to tell calls from comments, strings,
// method declarations and interface method specs.
package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
)

func main() {
	root := os.Args[1]
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		path := in.Text()
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, filepath.Join(root, path), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				fmt.Fprintf(out, "%s\tbare\t%s\n", path, fun.Name)
			case *ast.IndexExpr:
				if id, ok := fun.X.(*ast.Ident); ok {
					fmt.Fprintf(out, "%s\tbare\t%s\n", path, id.Name)
				}
			case *ast.SelectorExpr:
				if id, ok := fun.X.(*ast.Ident); ok {
					fmt.Fprintf(out, "%s\t%s\t%s\n", path, id.Name, fun.Sel.Name)
				}
			}
			return true
		})
	}
}
