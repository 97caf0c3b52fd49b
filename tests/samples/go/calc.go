// Package calc holds arithmetic helpers.
package calc

// Add returns a + b.
func Add(a, b int) int { return a + b }

// Sub returns a - b.
func Sub(a, b int) int { return a + b } // seeded bug

// Mul returns a * b.
func Mul(a, b int) int { return a * b }
