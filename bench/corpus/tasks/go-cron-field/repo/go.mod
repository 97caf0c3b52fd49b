module example.com/cronexpr

go 1.19
