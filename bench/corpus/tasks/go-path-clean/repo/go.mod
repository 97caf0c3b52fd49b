module example.com/path

go 1.19
