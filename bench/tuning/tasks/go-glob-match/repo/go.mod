module example.com/glob

go 1.19
