import PizzeriaCLI

PizzeriaCLI.main()
