module example.com/durafmt

go 1.19
