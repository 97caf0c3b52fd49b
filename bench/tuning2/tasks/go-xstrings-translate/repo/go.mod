module example.com/xstrings

go 1.19
