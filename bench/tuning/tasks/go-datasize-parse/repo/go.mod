module example.com/datasize

go 1.19
