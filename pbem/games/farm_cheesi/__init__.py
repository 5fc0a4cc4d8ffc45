"""Farm-cheesi, the "Game of Flies": a Parcheesi variant (kind ``farm-cheesi``).

state.py holds the frozen state, board.py the board and single moves,
plays.py whole plays of a roll or a bonus, orders.py the orders, grammar.py their
lark transformer (imported lazily by rules.py, the game).
"""
