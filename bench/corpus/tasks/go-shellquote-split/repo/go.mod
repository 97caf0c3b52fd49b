module example.com/shellquote

go 1.19
