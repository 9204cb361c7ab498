.PHONY: install demo serve test typecheck bench ci clean

install:
	npm ci --no-audit --no-fund

demo:
	npm run demo

test:
	npm test

typecheck:
	npm run typecheck

bench:
	npm run bench

ci:
	bash .ci/run

clean:
	rm -f data/*.db data/*.db-shm data/*.db-wal
