module example.com/pathmatch

go 1.19
