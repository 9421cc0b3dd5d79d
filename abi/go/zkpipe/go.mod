module zkpipe

go 1.19
