module example.com/humanize

go 1.19
