module example.com/schedule

go 1.19
