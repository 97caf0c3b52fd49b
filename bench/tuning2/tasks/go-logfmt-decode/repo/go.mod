module example.com/logfmt

go 1.19
